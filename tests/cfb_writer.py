"""A small compound-file (CFB, [MS-CFB] version 3) writer, so tests can make real Outlook .msg files.

No library here writes MSG or CFB. This one writes what the format needs and no more: 512-byte sectors, one FAT
(up to 109 FAT sectors, about 7 MB), streams under 4,096 bytes in the mini stream, storages as sorted trees.
`olefile` reads its output with its strictest defect level (see tests/test_msg_format.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SECTOR = 512
MINI_SECTOR = 64
MINI_CUTOFF = 4096
FREE, END, FAT_SECT, NO_STREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass
class _Entry:
    name: str
    kind: int  # 1 storage, 2 stream, 5 root
    data: bytes = b""
    children: list[_Entry] = field(default_factory=list)
    left: int = NO_STREAM
    right: int = NO_STREAM
    child: int = NO_STREAM
    start: int = END
    size: int = 0


def _key(entry: _Entry) -> tuple[int, str]:
    """[MS-CFB] 2.6.4: siblings compare by name length, then by upper-cased name."""
    return len(entry.name), entry.name.upper()


def _tree(entries: list[_Entry], ids: dict[int, int]) -> int:
    """Link sorted siblings into a balanced binary tree (all black); the root's directory id."""
    if not entries:
        return NO_STREAM
    middle = len(entries) // 2
    root = entries[middle]
    root.left = _tree(entries[:middle], ids)
    root.right = _tree(entries[middle + 1:], ids)
    return ids[id(root)]


def _sectors(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size].ljust(size, b"\x00") for i in range(0, len(data), size)] or []


def write_cfb(streams: dict[str, bytes]) -> bytes:
    """A compound file holding `streams`, keyed by path ('__attach_version1.0_#00000000/__substg1.0_3701...')."""
    root = _Entry("Root Entry", 5)
    for path, data in streams.items():
        parent = root
        *folders, name = path.split("/")
        for folder in folders:
            found = next((c for c in parent.children if c.name == folder and c.kind == 1), None)
            if found is None:
                found = _Entry(folder, 1)
                parent.children.append(found)
            parent = found
        parent.children.append(_Entry(name, 2, data))
    order: list[_Entry] = []
    pending = [root]
    while pending:
        entry = pending.pop(0)
        order.append(entry)
        entry.children.sort(key=_key)
        pending += entry.children
    ids = {id(entry): n for n, entry in enumerate(order)}
    for entry in order:
        entry.child = _tree(entry.children, ids)
    # the mini stream (small streams, 64-byte mini sectors) and its mini FAT
    mini = bytearray()
    mini_fat: list[int] = []
    big: list[_Entry] = []
    for entry in order:
        if entry.kind != 2:
            continue
        entry.size = len(entry.data)
        if entry.size >= MINI_CUTOFF:
            big.append(entry)
        elif entry.size:
            entry.start = len(mini) // MINI_SECTOR
            count = -(-entry.size // MINI_SECTOR)
            mini_fat += [entry.start + k + 1 for k in range(count - 1)] + [END]
            mini += entry.data.ljust(count * MINI_SECTOR, b"\x00")
    root.size = len(mini)
    chains: list[tuple[_Entry | str, list[bytes]]] = [("mini_fat", _sectors(struct.pack(f"<{len(mini_fat)}I", *mini_fat)
                                                                           + b"\xff" * (-4 * len(mini_fat) % SECTOR),
                                                                           SECTOR)),
                                                      (root, _sectors(bytes(mini), SECTOR))]
    chains += [(entry, _sectors(entry.data, SECTOR)) for entry in big]
    directory_count = -(-len(order) // 4)
    data_sectors = directory_count + sum(len(sectors) for _, sectors in chains)
    fat_count = 1
    while fat_count * (SECTOR // 4) < fat_count + data_sectors:
        fat_count += 1
    if fat_count > 109:
        raise ValueError("too large for this small writer (no DIFAT sectors)")
    fat = [FAT_SECT] * fat_count
    body: list[bytes] = []
    first_directory = fat_count
    fat += [first_directory + k + 1 for k in range(directory_count - 1)] + [END]
    starts: dict[str, int] = {}
    for owner, sectors in chains:
        start = fat_count + directory_count + len(body)
        if sectors:
            fat += [start + k + 1 for k in range(len(sectors) - 1)] + [END]
        body += sectors
        if isinstance(owner, _Entry):
            owner.start = start if sectors else END
        else:
            starts[owner] = start if sectors else END
    fat += [FREE] * (fat_count * (SECTOR // 4) - len(fat))
    directory = b"".join(_directory_entry(entry) for entry in order)
    directory += _empty_entry() * (directory_count * 4 - len(order))
    header = struct.pack("<8s16sHHHHH6sIIIIIIIII", MAGIC, b"\x00" * 16, 0x3E, 3, 0xFFFE, 9, 6, b"\x00" * 6, 0,
                         fat_count, first_directory, 0, MINI_CUTOFF, starts["mini_fat"],
                         -(-len(mini_fat) * 4 // SECTOR), END, 0)
    header += struct.pack("<109I", *(list(range(fat_count)) + [FREE] * (109 - fat_count)))
    return header + struct.pack(f"<{len(fat)}I", *fat) + directory + b"".join(body)


def _directory_entry(entry: _Entry) -> bytes:
    name = entry.name.encode("utf-16-le")
    if len(name) > 62:
        raise ValueError(f"name too long for a compound file: {entry.name!r}")
    return struct.pack("<64sHBBIII16sIQQIQ", name, len(name) + 2, entry.kind, 1, entry.left, entry.right,
                       entry.child, b"\x00" * 16, 0, 0, 0, entry.start if entry.kind != 1 else 0,
                       entry.size if entry.kind != 1 else 0)


def _empty_entry() -> bytes:
    return struct.pack("<64sHBBIII16sIQQIQ", b"", 0, 0, 0, NO_STREAM, NO_STREAM, NO_STREAM, b"\x00" * 16, 0, 0, 0,
                       0, 0)
