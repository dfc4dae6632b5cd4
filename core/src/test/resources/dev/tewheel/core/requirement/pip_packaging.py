"""What pip's own packaging says of generated requirements, markers and versions (the oracle of
RequirementOracleTest). Reads a JSON case file, writes a JSON answer; runs on Debian's python3."""
import json
import sys

from pip._vendor.packaging.markers import Marker
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.specifiers import LegacySpecifier
from pip._vendor.packaging.version import InvalidVersion, Version


def evaluate(marker, envs):
    out = []
    for env in envs:
        try:
            out.append(bool(marker.evaluate(env)))
        except Exception:
            out.append("error")
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    envs = cases["envs"]
    answer = {"versions": [], "requirements": [], "markers": []}
    valid = []
    for text in cases["versions"]:
        try:
            v = Version(text)
        except InvalidVersion:
            answer["versions"].append(None)
            continue
        answer["versions"].append({"text": str(v), "pre": v.is_prerelease})
        valid.append((v, text))
    answer["order"] = [t for _, t in sorted(valid, key=lambda p: p[0])]
    probes = [Version(t) for t in cases["probes"]]
    for text in cases["requirements"]:
        try:
            req = Requirement(text)
        except Exception:
            answer["requirements"].append(None)
            continue
        specs = sorted([s.operator, s.version, isinstance(s, LegacySpecifier)] for s in req.specifier)
        legacy = any(isinstance(s, LegacySpecifier) for s in req.specifier)
        answer["requirements"].append({
            "name": req.name,
            "extras": sorted(req.extras),
            "specs": specs,
            "url": req.url,
            "marker": None if req.marker is None else evaluate(req.marker, envs),
            "contains": None if legacy else [req.specifier.contains(p) for p in probes],
        })
    for text in cases["markers"]:
        try:
            marker = Marker(text)
        except Exception:
            answer["markers"].append(None)
            continue
        answer["markers"].append(evaluate(marker, envs))
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(answer, f)


main()
