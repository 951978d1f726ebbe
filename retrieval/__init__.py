"""Entitlement-trimmed hybrid retrieval: documents in with their ACLs, fused BM25 + dense results out."""
