"""gpuisa's web reference: an ASGI server (``gpuisa serve``) and a static export (``gpuisa export-site``).

``site`` builds every page from ``gpuisa.pages.build_model`` and the store's query methods,
``app`` serves them with the JSON API, ``export`` writes them as static files.
"""
