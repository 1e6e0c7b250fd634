#!/usr/bin/env python3
"""sarif_validate.py -- check SARIF logs against the official SARIF 2.1.0
JSON schema, and the references between their parts a schema cannot state.

Usage: sarif_validate.py --cache DIR [--rules-doc FILE] [--root DIR] LOG...

The schema is OASIS's sarif-schema-2.1.0 (its final "rtm.5" text), which
the npm package @microsoft/jest-sarif ships.  It is fetched once from the
npm registry into DIR and checked against a pinned SHA-256, never kept in
the repository.  Validation uses python3-jsonschema's Draft 4 validator
(the schema's own draft).

Beyond the schema, for each result: its ruleIndex names the rule of its
ruleId; each uriBaseId is defined in originalUriBaseIds; each artifact
URI is an RFC 3986 URI reference with nothing left unencoded; with
--root, a relative URI names a file under it and its region lies within
the file.  With --rules-doc, each rule's helpUri ends in an anchor that a
heading of that Markdown file has (GitHub's way of naming headings).

Prints "ok" per valid log; otherwise one line per problem, "PATH: what".
Exit status: 0 valid, 1 a problem, 2 usage error, 77 nothing could be
checked (no jsonschema module, or no way to fetch the schema).
"""
import hashlib
import io
import json
import os
import re
import sys
import tarfile
import urllib.request

PACKAGE = "@microsoft/jest-sarif"
TARBALL = "https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz"
MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"
PINNED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sarif-schema.sha256")


def skip(why):
    print("cannot check: " + why)
    sys.exit(77)


def pinned_sha():
    with open(PINNED) as f:
        return f.read().split()[0]


def fetch_schema(cache):
    """The schema's text, from the cache or the npm registry."""
    path = os.path.join(cache, "sarif-schema-2.1.0.json")
    want = pinned_sha()
    if os.path.exists(path):
        data = open(path, "rb").read()
        if hashlib.sha256(data).hexdigest() == want:
            return data
    registry = os.environ.get("npm_config_registry", "https://registry.npmjs.org/").rstrip("/")
    url = TARBALL.replace("https://registry.npmjs.org", registry)
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            tgz = r.read()
    except Exception as e:  # no network: nothing to check against
        skip("the SARIF schema could not be fetched from %s (%s)" % (url, e))
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as t:
        data = t.extractfile(MEMBER).read()
    got = hashlib.sha256(data).hexdigest()
    if got != want:
        print("%s: the schema in %s has SHA-256 %s, not the pinned %s" % (url, PACKAGE, got, want))
        sys.exit(1)
    os.makedirs(cache, exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return data


# RFC 3986 URI-reference: the characters allowed, and '%' only as %XX.
URI_CHARS = re.compile(r"^([A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*$")


def github_anchor(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors_of(doc):
    found = set()
    for line in open(doc, encoding="utf-8"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            found.add(github_anchor(m.group(1)))
    return found


def cross_checks(log, problems, anchors, root):
    for ri, run in enumerate(log.get("runs", [])):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        bases = run.get("originalUriBaseIds", {})
        for k, rule in enumerate(rules):
            uri = rule.get("helpUri")
            where = "/runs/%d/tool/driver/rules/%d" % (ri, k)
            if anchors is not None:
                if not uri or "#" not in uri:
                    problems.append("%s/helpUri: missing, or without an anchor" % where)
                elif uri.split("#", 1)[1] not in anchors:
                    problems.append("%s/helpUri: no heading of the rules doc has the anchor #%s"
                                    % (where, uri.split("#", 1)[1]))
        for k, res in enumerate(run.get("results", [])):
            where = "/runs/%d/results/%d" % (ri, k)
            if "ruleIndex" in res:
                i = res["ruleIndex"]
                if i >= len(rules):
                    problems.append("%s/ruleIndex: %d is past the end of the %d rules" % (where, i, len(rules)))
                elif rules[i].get("id") != res.get("ruleId"):
                    problems.append('%s/ruleIndex: rules[%d] is "%s", but ruleId is "%s"'
                                    % (where, i, rules[i].get("id"), res.get("ruleId")))
            locs = [("locations", l) for l in res.get("locations", [])] + \
                   [("relatedLocations", l) for l in res.get("relatedLocations", [])]
            for j, (kind, loc) in enumerate(locs):
                phys = loc.get("physicalLocation", {})
                art = phys.get("artifactLocation", {})
                at = "%s/%s/%d/physicalLocation/artifactLocation" % (where, kind, j)
                uri = art.get("uri", "")
                if not URI_CHARS.match(uri):
                    problems.append('%s/uri: "%s" is not a valid URI reference' % (at, uri))
                base = art.get("uriBaseId")
                if base is not None and base not in bases:
                    problems.append('%s/uriBaseId: "%s" is not in originalUriBaseIds' % (at, base))
                if base is not None and root is not None:
                    path = os.path.join(root, urllib.request.url2pathname(uri))
                    if not os.path.isfile(path):
                        problems.append('%s/uri: "%s" names no file under %s' % (at, uri, root))
                        continue
                    n_lines = open(path, "rb").read().count(b"\n") + 1
                    reg = phys.get("region", {})
                    if reg.get("startLine", 1) > n_lines or reg.get("endLine", 1) > n_lines:
                        problems.append("%s/region: past the %d lines of the file" % (at[:-len("/artifactLocation")], n_lines))
        for name, b in bases.items():
            u = b.get("uri", "")
            if not u.endswith("/"):
                problems.append('/runs/%d/originalUriBaseIds/%s/uri: "%s" does not end with "/"' % (ri, name, u))


def main(argv):
    args = {"--cache": None, "--rules-doc": None, "--root": None}
    logs = []
    i = 0
    while i < len(argv):
        if argv[i] in args and i + 1 < len(argv):
            args[argv[i]] = argv[i + 1]
            i += 2
        elif argv[i].startswith("--"):
            print("sarif_validate.py: unknown option %s" % argv[i])
            return 2
        else:
            logs.append(argv[i])
            i += 1
    if not args["--cache"] or not logs:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    try:
        import jsonschema
    except ImportError:
        skip("no python3 jsonschema module (Debian: python3-jsonschema)")
    schema = json.loads(fetch_schema(args["--cache"]))
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    anchors = anchors_of(args["--rules-doc"]) if args["--rules-doc"] else None
    bad = 0
    for path in logs:
        try:
            log = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError) as e:
            print("%s: not JSON: %s" % (path, e))
            bad = 1
            continue
        problems = []
        for err in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
            where = "/" + "/".join(str(p) for p in err.absolute_path)
            problems.append("%s: %s" % (where, err.message))
        cross_checks(log, problems, anchors, args["--root"])
        for p in problems:
            print("%s: %s" % (path, p))
        if problems:
            bad = 1
        else:
            print("ok")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
