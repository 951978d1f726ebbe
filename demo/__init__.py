"""The bundled demo corpus: Halyard Labs, a fictional company written for this project."""
