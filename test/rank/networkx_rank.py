"""An independent ranking to check ours against: aider's graph built in Python, ranked by networkx.

Reads {"files": [{"path", "definitions": [{"name", "line"}], "references": [name]}],
"chat": [path], "mentionedFiles": [path], "mentionedIdents": [name]} on stdin; writes
{"pagerank": {path: rank}, "ranked": [[path, name, score]]} on stdout. The graph follows aider's
get_ranked_tags, except that the square root of a reference count is taken once per
(referencer, definer) pair, as our ranking intends.
"""
import json
import math
import os
import sys
from collections import Counter, defaultdict

import networkx as nx


def main():
    spec = json.load(sys.stdin)
    chat = set(spec.get("chat", []))
    mentioned_files = set(spec.get("mentionedFiles", []))
    mentioned_idents = set(spec.get("mentionedIdents", []))
    files = sorted(spec["files"], key=lambda f: f["path"])

    defines = defaultdict(set)
    references = defaultdict(list)
    personalization = {}
    share = 100 / len(files)
    for f in files:
        path = f["path"]
        weight = share if path in chat else 0.0
        if path in mentioned_files:
            weight = max(weight, share)
        parts = path.split("/")
        components = set(parts) | {os.path.splitext(parts[-1])[0]}
        if components & mentioned_idents:
            weight += share
        if weight > 0:
            personalization[path] = weight
        for d in f["definitions"]:
            defines[d["name"]].add(path)
        for name in f["references"]:
            references[name].append(path)

    if not references:
        references = {k: list(v) for k, v in defines.items()}

    graph = nx.MultiDiGraph()
    for ident, definers in defines.items():
        if ident in references:
            continue
        for definer in definers:
            graph.add_edge(definer, definer, weight=0.1, ident=ident)
    for ident in set(defines) & set(references):
        definers = defines[ident]
        mul = 1.0
        is_snake = "_" in ident and any(c.isalpha() for c in ident)
        is_kebab = "-" in ident and any(c.isalpha() for c in ident)
        is_camel = any(c.isupper() for c in ident) and any(c.islower() for c in ident)
        if ident in mentioned_idents:
            mul *= 10
        if (is_snake or is_kebab or is_camel) and len(ident) >= 8:
            mul *= 10
        if ident.startswith("_"):
            mul *= 0.1
        if len(definers) > 5:
            mul *= 0.1
        for referencer, count in Counter(references[ident]).items():
            weight = mul * (50 if referencer in chat else 1) * math.sqrt(count)
            for definer in definers:
                graph.add_edge(referencer, definer, weight=weight, ident=ident)

    args = {"personalization": personalization, "dangling": personalization} if personalization else {}
    try:
        ranks = nx.pagerank(graph, weight="weight", **args)
    except ZeroDivisionError:
        ranks = nx.pagerank(graph, weight="weight")

    ranked = defaultdict(float)
    for src in graph.nodes:
        total = sum(data["weight"] for _s, _d, data in graph.out_edges(src, data=True))
        for _s, dst, data in graph.out_edges(src, data=True):
            ranked[(dst, data["ident"])] += ranks[src] * data["weight"] / total
    ordered = sorted(ranked.items(), reverse=True, key=lambda item: (item[1], item[0]))
    json.dump({"pagerank": ranks, "ranked": [[path, name, score] for (path, name), score in ordered]}, sys.stdout)


main()
