"""Cross-vendor map AMD <-> PTX: relations, their proofs by execution, pages and commands."""
