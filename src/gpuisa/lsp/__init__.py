"""Language server for AMDGPU assembly and PTX (``gpuisa lsp``): see server.py."""
