"""File-based catalogs: safe layer unpacking, FBC parsing and JSONL writing. Pure; no Django."""
