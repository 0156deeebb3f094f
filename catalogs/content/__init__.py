"""The catalog content server: streams stored catalogs over HTTP. Never imports DRF or dispatches tasks."""
