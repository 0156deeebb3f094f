"""The catalog content server: streams stored catalogs over HTTP and answers GraphQL queries on them.
Never imports DRF or dispatches tasks."""
