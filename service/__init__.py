"""The HTTP service: FastAPI routes, and the LangGraph server's graph factory and auth."""
