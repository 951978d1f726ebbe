"""Send numpy vectors to pgvector in its binary wire format (no text formatting of floats, fast COPY)."""

from __future__ import annotations

import struct

import numpy as np
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo

from boundloop.retrieval.errors import IndexStoreError


class VectorBinaryDumper(Dumper):
    """A float32 array as pgvector's `vector_recv` expects it: int16 dimension, int16 zero, big-endian float4s."""

    format = Format.BINARY

    def dump(self, obj: np.ndarray) -> bytes:
        values = np.asarray(obj, dtype=">f4").ravel()
        return struct.pack(">HH", values.size, 0) + values.tobytes()


def register_vector(conn: psycopg.Connection) -> None:
    """Dump numpy arrays as `vector` on this connection; needs the extension to exist."""
    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        raise IndexStoreError("the pgvector extension is not installed in this database (CREATE EXTENSION vector)")
    info.register(conn)  # lets COPY name the type: set_types([..., "vector"])
    dumper = type("NumpyVectorDumper", (VectorBinaryDumper,), {"oid": info.oid})
    conn.adapters.register_dumper(np.ndarray, dumper)
