"""64-bit state fingerprints that are the same in every process.

Python's hash() of a str changes with PYTHONHASHSEED, so it cannot be shared between worker
processes or Spark executors. A fingerprint here is xxHash3-64 over a canonical encoding of
the value: kinds are tagged, set elements are taken in fingerprint order, so equal values
always encode alike and no two kinds can collide by construction.
"""
from __future__ import annotations

import struct

import xxhash

from ..semantics.values import Fn, LazySet, ModelValue, as_set

_pack_q = struct.Struct("<Q").pack


def fingerprint(value) -> int:
    """The 64-bit fingerprint of a value (a state is a tuple of values)."""
    return xxhash.xxh3_64_intdigest(_encode(value))


def _encode(v) -> bytes:
    t = type(v)
    if t is bool:
        return b"T" if v else b"F"
    if t is int:
        return b"i" + str(v).encode() + b";"
    if t is str:
        data = v.encode("utf-8")
        return b"s" + str(len(data)).encode() + b":" + data
    if t is ModelValue:
        data = v.name.encode("utf-8")
        return b"m" + str(len(data)).encode() + b":" + data
    if t is tuple:
        return b"(" + b"".join([_encode(x) for x in v]) + b")"
    if t is frozenset:
        parts = sorted(fingerprint(x) for x in v)
        return b"{" + b"".join([_pack_q(p) for p in parts]) + b"}"
    if t is Fn:
        keys, vals = v
        return b"[" + b"".join([_encode(k) + _encode(x) for k, x in zip(keys, vals,
                                                                         strict=True)]) + b"]"
    if isinstance(v, LazySet):
        return _encode(as_set(v))
    raise TypeError(f"cannot fingerprint {v!r}")
