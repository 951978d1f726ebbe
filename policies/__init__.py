"""The three wardens: the budget governor, the entitlement resolver and the verifier."""
