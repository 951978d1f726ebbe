"""The OpenAPI document describes every route, both credentials, and refuses unknown fields."""

from __future__ import annotations


def test_openapi_documents_routes_security_and_strict_bodies(client):
    spec = client.get("/openapi.json").json()
    assert {"/ask", "/ask/stream", "/runs/{run_id}", "/runs/{run_id}/trace", "/ingest", "/healthz",
            "/metrics"} <= set(spec["paths"])
    assert set(spec["components"]["securitySchemes"]) == {"Bearer", "ApiKey"}
    ask = spec["components"]["schemas"]["AskRequest"]
    assert ask["additionalProperties"] is False and ask["properties"]["question"]["maxLength"] == 4000
    assert "user" not in ask["properties"]
    assert "text/event-stream" in spec["paths"]["/ask/stream"]["post"]["responses"]["200"]["content"]
    assert "multipart/form-data" in spec["paths"]["/ingest"]["post"]["requestBody"]["content"]
    assert spec["paths"]["/ask"]["post"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RunResult"}
