"""The HTTP service: FastAPI routes, the LangGraph server's graph factory and auth, and shared run persistence."""
