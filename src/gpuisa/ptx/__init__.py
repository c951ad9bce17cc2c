"""NVIDIA PTX: catalog, validator, ptxas differential and executable semantics."""
