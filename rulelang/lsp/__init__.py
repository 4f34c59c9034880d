"""Editor support: what the language server knows about a buffer (``analysis``) and the server (``server``).

Only ``server`` needs pygls (the ``rulelang[lsp]`` extra); the analysis works without it.
"""
