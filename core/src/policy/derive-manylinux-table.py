#!/usr/bin/env python3
"""Writes te-wheel's manylinux policy table from auditwheel's policy data.

Usage: derive-manylinux-table.py <manylinux-policy.json> <auditwheel commit> > manylinux-policies.txt

The table says what the JSON says, in the form ManylinuxPolicies reads: each policy lists only the libraries and
symbol versions it adds to the policy before it (the manylinux policies only ever grow: auditwheel refuses a JSON
where they do not), and its complete blacklist.
"""
import json
import sys

policies = sorted(json.load(open(sys.argv[1])), key=lambda p: -p["priority"])
print("# The manylinux policies: the libraries each allows, the symbol versions it allows per architecture, and the")
print("# symbols it refuses from its libraries. Derived by core/src/policy/derive-manylinux-table.py from")
print(f"# src/auditwheel/policy/manylinux-policy.json of pypa/auditwheel at commit {sys.argv[2]} (MIT licence,")
print("# Copyright (c) 2016 Robert T. McGibbon); nothing of auditwheel itself is shipped.")
print("# Lines, from the most compatible policy to the least:")
print("#   policy <name> <priority> [<alias>...]")
print("#   allow <library>...                       libraries this policy adds to the one before it")
print("#   versions <arch> <prefix> <version>...    symbol versions it adds for <arch> (<prefix>_<version>); a prefix")
print("#                                            no policy lists is not limited, one listed with none allows none")
print("#   blacklist <library> <symbol>...          symbols of <library> it refuses (complete, not added)")
seen_libs = set()
seen_versions = {}
for policy in policies:
    if policy["name"] == "linux":
        continue
    print()
    print(" ".join(["policy", policy["name"], str(policy["priority"])] + policy["aliases"]))
    added = sorted(set(policy["lib_whitelist"]) - seen_libs)
    seen_libs |= set(policy["lib_whitelist"])
    if added:
        print("allow " + " ".join(added))
    for arch in sorted(policy["symbol_versions"]):
        for prefix in sorted(policy["symbol_versions"][arch]):
            versions = set(policy["symbol_versions"][arch][prefix])
            first = (arch, prefix) not in seen_versions
            new = sorted(versions - seen_versions.get((arch, prefix), set()))
            seen_versions.setdefault((arch, prefix), set()).update(versions)
            if new or first:  # a prefix listed with no version allows none of it
                print(" ".join(["versions", arch, prefix] + new))
    for lib in sorted(policy["blacklist"]):
        print(" ".join(["blacklist", lib] + sorted(policy["blacklist"][lib])))
