"""The smokejumper web service (FastAPI)."""
