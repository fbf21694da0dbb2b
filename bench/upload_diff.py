#!/usr/bin/env python3
"""What a deploy of tree B uploads after tree A: the files of B's public
directory whose bytes are not already on the CDN as the same path of A
(netlify deploy hashes every file and uploads only what it does not have).

    python3 bench/upload_diff.py OLD_TREE NEW_TREE [--max-share PCT] [--show N]

Prints a Markdown table (files and bytes to upload, outside api/ and in
all, against the whole public directory) and the directories that changed
most; with --max-share, exits 1 when the bytes to upload exceed PCT % of
the tree's bytes.
"""

import argparse
import collections
import hashlib
import os
import sys


def files(tree):
    """{relative path: (size, sha1)} of a tree's public directory."""
    root = os.path.join(tree, "public")
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "rb") as file:
                data = file.read()
            found[os.path.relpath(path, root)] = (len(data), hashlib.sha1(data).hexdigest())
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--max-share", type=float)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args()
    old, new = files(args.old), files(args.new)
    upload = {path: size for path, (size, digest) in new.items() if old.get(path, (0, None))[1] != digest}
    total_bytes = sum(size for size, _ in new.values())
    rows = []
    for label, keep in [("outside api/", lambda p: not p.startswith("api/")), ("all", lambda p: True)]:
        tree_files = [p for p in new if keep(p)]
        changed = [p for p in upload if keep(p)]
        tree_bytes = sum(new[p][0] for p in tree_files)
        changed_bytes = sum(upload[p] for p in changed)
        rows.append((label, len(changed), len(tree_files), changed_bytes, tree_bytes))
    print("| files of public/ | uploaded files | of | share | uploaded MB | of MB | share of bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, changed, count, changed_bytes, tree_bytes in rows:
        print(
            f"| {label} | {changed:,} | {count:,} | {100 * changed / max(count, 1):.1f} % "
            f"| {changed_bytes / 1e6:.2f} | {tree_bytes / 1e6:.2f} | {100 * changed_bytes / max(tree_bytes, 1):.1f} % |"
        )
    by_kind = collections.Counter()
    for path, size in upload.items():
        parts = path.split("/")
        kind = parts[0] if len(parts) < 3 else f"{parts[0]}/*/{parts[-1]}"
        by_kind[kind] += size
    print()
    print("Largest uploads by kind: " + ", ".join(
        f"{kind} {size / 1e6:.2f} MB" for kind, size in by_kind.most_common(args.show)))
    share = 100 * sum(upload.values()) / max(total_bytes, 1)
    if args.max_share is not None and share > args.max_share:
        print(f"FAIL: a deploy uploads {share:.1f} % of the tree's bytes (limit {args.max_share} %)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
