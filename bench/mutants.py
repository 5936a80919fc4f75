#!/usr/bin/env python3
"""How strong are the KIP models' properties?  `kipcheck mutate` over each model's small
configurations taken together, as a test suite: the tables of invariants/MUTANTS.md.

    python bench/mutants.py                        # every KIP model (long: about an hour)
    python bench/mutants.py --only KIP858_a        # one model
    python bench/mutants.py --only KIP928 --workers 2 --json /tmp/kip928.json
    python bench/mutants.py --cache /tmp/mutants.cache     # reuse checks of unchanged inputs

A model is a spec with its small, passing configurations in the manifest (KIP858_a is every
`KIP858_a_*` entry of size small with verdict ok).  The mutants are those `kipcheck mutate`
derives from each configuration (the same text edit has the same id in every configuration;
an action switched off by one configuration is mutated under another).  A mutant is checked
under the model's configurations, the smallest first, until one kills it: as in any mutation
testing, a mutant is killed when some test -- here some configuration -- fails on it.  Its fate:

- killed: a configuration's property (or deadlock, or Assert) failed; the first such
  configuration is shown;
- invalid: the mutant does not parse, or an evaluation error stopped it under a configuration;
- survived: every configuration that checked it passed; undecided when one of them reached
  the state budget instead (--budget times its original's distinct states, plus 10,000;
  `kipcheck mutate`'s default is ten times: a suite of configurations can afford less);
- killed by a witness: no configuration killed it (nor found it invalid), but under one of
  them it passed every property without reaching a witness the original reaches there (the
  witnesses of `<spec stem>.witnesses.txt` and `<cfg stem>.witnesses.txt`); the suite goes on
  after such a kill, so the rate without witnesses is exact too;
- equivalent: every configuration that derives it lists it in its equivalents file
  (`<cfg stem>.equivalent.txt`, or the spec's `<spec stem>.equivalent.txt` for every
  configuration of the spec), with the reason; it is not checked.

Not a test (too slow for CI): tests/test_mutate.py checks one small configuration's totals.
The output is Markdown: per model, one row per configuration (mutants it derives, how many it
checked, how many it killed first), the totals with the kill rate, then every survivor.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker import mutate as M  # noqa: E402
from checker.frontend import load_spec  # noqa: E402
from checker.manifest import load as load_manifest  # noqa: E402

# model -> the prefix of its configurations' manifest names
MODELS = {
    "KIP858_a": "KIP858_a_",
    "KIP858_b": "KIP858_b_",
    "KIP858_c": "KIP858_c_",
    "KIP516": "KIP516_",
    "KIP36": "KIP36_",
    "KIP928": "KIP928_kip_",
}


def configurations(prefix: str) -> list:
    """The small passing manifest entries of a model, the fewest distinct states first."""
    entries = [e for e in load_manifest(ROOT / "invariants" / "manifest.json").entries
               if e.name.startswith(prefix) and e.size == "small" and e.verdict == "ok"]
    return sorted(entries, key=lambda e: (e.distinct_states or 0, e.name))


def split(entries: list, max_states: int | None) -> tuple[list, list]:
    """(the configurations of the suite, those left out for having more distinct states than
    max_states): a survivor is checked under every configuration of the suite, so its cost
    is their total size."""
    if max_states is None:
        return entries, []
    return ([e for e in entries if (e.distinct_states or 0) <= max_states],
            [e for e in entries if (e.distinct_states or 0) > max_states])


def derive_all(entries: list, witnesses: bool = True) -> tuple[dict, dict, dict]:
    """mutant id -> Mutant (as first derived); id -> the configurations deriving it, in order;
    configuration -> (its equivalents, its original's result)."""
    mutants: dict[str, M.Mutant] = {}
    where: dict[str, list[str]] = {}
    info: dict[str, dict] = {}
    for e in entries:
        loaded = load_spec(str(e.spec_path), str(e.config_path), e.lib_paths)
        derived, disabled = M.derive(loaded)
        equivalents = M.default_equivalents(e.config_path, e.spec_path)
        wanted = tuple(M.default_witnesses(e.config_path, e.spec_path)) if witnesses else ()
        original = M._check_one((str(e.spec_path), str(e.config_path), e.lib_paths, (), None,
                                 None, None, wanted))
        reached = tuple(n for n in wanted if original["witnesses"].get(n) is not None)
        if original["verdict"] == "witness":  # a listed witness this .cfg does not reach
            original["verdict"] = "ok"
        if original["verdict"] != "ok":
            raise SystemExit(f"{e.name}: the original does not pass ({original['verdict']})")
        text = dict(loaded.modules.sources)
        info[e.name] = {"entry": e, "equivalents": equivalents, "original": original,
                        "derived": len(derived), "disabled": disabled, "text": text,
                        "witnesses": reached}
        for m in derived:
            if m.id in mutants:
                assert mutants[m.id].change == m.change, m.id
            else:
                mutants[m.id] = m
            where.setdefault(m.id, []).append(e.name)
    return mutants, where, info


def _suite(job: tuple) -> list[tuple[str, dict, str]]:
    """Check one mutant under its configurations in order until a property kills it (or it is
    invalid there): a witness kill goes on, to tell whether a property kills it too;
    (configuration, result, cache key) of each check made."""
    out = []
    for name, spec, config, lib, texts, max_states, witnesses, key, known in job:
        r = known or M._check_one((spec, config, lib, (), None, texts, max_states, witnesses))
        out.append((name, r, key))
        if M._fate(r)[0] in ("killed", "invalid") and r["verdict"] != "witness":
            break
    return out


def _key(config_text: str, texts: dict, mutated: dict, max_states: int,
         witnesses: tuple = ()) -> str:
    """What a check depends on: the .cfg, every module's text with the mutant's edit, the
    budget, the witnesses."""
    h = hashlib.sha256(config_text.encode())
    for f in sorted(texts):
        h.update(f.encode() + b"\0" + mutated.get(f, texts[f]).encode() + b"\0")
    h.update(str(max_states).encode())
    if witnesses:
        h.update(("\0".join(witnesses)).encode())
    return h.hexdigest()


def run_model(model: str, workers: int, echo, budget: int = 3, cache: dict | None = None,
              save=None, max_config_states: int | None = None, witnesses: bool = True,
              only_ids: set | None = None) -> dict:
    cache = {} if cache is None else cache
    entries, left_out = split(configurations(MODELS[model]), max_config_states)
    started = time.perf_counter()
    mutants, where, info = derive_all(entries, witnesses)
    if only_ids:
        unknown = only_ids - set(mutants)
        if unknown:
            raise SystemExit(f"{model}: no mutant {', '.join(sorted(unknown))}")
        mutants = {mid: m for mid, m in mutants.items() if mid in only_ids}
    jobs, ids, rows = [], [], {}
    for mid, m in sorted(mutants.items(), key=lambda kv: (kv[1].file, kv[1].start, kv[0])):
        checked = [n for n in where[mid] if mid not in info[n]["equivalents"]]
        row = {"id": mid, "action": m.action, "kind": m.kind, "line": m.line,
               "column": m.column, "change": m.change, "configs": where[mid]}
        rows[mid] = row
        if not checked:
            row.update(fate="equivalent", reason=sorted(
                {info[n]["equivalents"][mid] for n in where[mid]}))
            continue
        job = []
        for n in checked:
            e, i = info[n]["entry"], info[n]
            text = i["text"][m.file]
            mutated = {m.file: text[:m.start] + m.new + text[m.end:]}
            limit = budget * i["original"]["distinct_states"] + 10_000
            job.append((n, str(e.spec_path), str(e.config_path), e.lib_paths, mutated, limit,
                        i["witnesses"],
                        _key(e.config_path.read_text(encoding="utf-8"), i["text"], mutated,
                             limit, i["witnesses"])))
        jobs.append([j + (cache.get(j[-1]),) for j in job])
        ids.append(mid)
    if workers > 1 and len(jobs) > 1:
        with mp.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
            results = list(_echoing(pool.imap(_suite, jobs), ids, echo, cache, save))
    else:
        results = list(_echoing(map(_suite, jobs), ids, echo, cache, save))
    for mid, checks in zip(ids, results, strict=True):
        checks = [(n, r) for n, r, _ in checks]
        row = rows[mid]
        row["checks"] = [{"config": n, **{k: r.get(k) for k in (
            "verdict", "property", "distinct_states", "states_generated", "trace_length",
            "message")}} for n, r in checks]
        fate, prop, by, by_witness = suite_fate(checks)
        row.update(fate=fate, property=prop, by=by, by_witness=by_witness)
        if fate == "survived":
            row["same_figures"] = all(_figures(r) == _figures(info[n]["original"])
                                      for n, r in checks)
    configs = []
    for e in entries:
        i = info[e.name]
        configs.append({
            "config": e.name, "distinct_states": i["original"]["distinct_states"],
            "derived": i["derived"], "disabled": i["disabled"],
            "equivalent": sum(1 for mid in where if e.name in where[mid]
                              and mid in i["equivalents"]),
            "checked": sum(1 for r in rows.values() for c in r.get("checks", ())
                           if c["config"] == e.name),
            "killed": sum(1 for r in rows.values() if r.get("by") == e.name
                          and r["fate"] == "killed"),
            "witnesses": list(i["witnesses"]),
        })
    totals = {f: sum(1 for r in rows.values() if r["fate"] == f) for f in M.FATES}
    totals["mutants"] = len(rows)
    live = totals["mutants"] - totals["equivalent"]
    totals["killed_by_witness"] = sum(1 for r in rows.values() if r.get("by_witness"))
    # survivors whose every check found the original's figures (distinct states, successors
    # generated): the change reaches no state count the original does not; at most it
    # redirects steps between states the original reaches anyway (or it is never exercised)
    totals["survived_same_figures"] = sum(1 for r in rows.values() if r.get("same_figures"))
    totals["kill_rate"] = round(100 * totals["killed"] / live, 1) if live else None
    totals["kill_rate_without_witnesses"] = round(
        100 * (totals["killed"] - totals["killed_by_witness"]) / live, 1) if live else None
    return {"model": model, "spec": entries[0].spec if entries else None, "configs": configs,
            "left_out": [{"config": e.name, "distinct_states": e.distinct_states}
                         for e in left_out],
            "mutants": list(rows.values()), "totals": totals,
            "seconds": round(time.perf_counter() - started)}


def _figures(r: dict) -> tuple:
    return r.get("distinct_states"), r.get("states_generated")


def suite_fate(checks: list) -> tuple:
    """(fate, property, configuration, by a witness?) of a mutant from its checks
    [(configuration, result)] in suite order: the last one's when a property killed it (or it
    was invalid), else the first witness kill, else survived or undecided."""
    last_name, last = checks[-1]
    fate, prop = M._fate(last)
    witness = next(((n, r) for n, r in checks if r["verdict"] == "witness"), None)
    if last["verdict"] == "witness" or fate in ("survived", "undecided") and witness:
        (last_name, last), fate = witness, "killed"
        prop = last["property"]
    if fate == "survived" and any(M._fate(r)[0] == "undecided" for _, r in checks):
        fate = "undecided"
    return (fate, prop, last_name if fate in ("killed", "invalid") else None,
            fate == "killed" and last["verdict"] == "witness")


def _echoing(results, ids, echo, cache, save):
    for i, r in enumerate(results):
        for _, check, key in r:
            cache[key] = check
        if save is not None:
            save()
        if echo is not None:
            fate, prop, by, by_witness = suite_fate([c[:2] for c in r])
            how = f" by witness {prop}" if by_witness else ""
            echo(f"[{i + 1}/{len(ids)}] {ids[i]}: {fate}{how} ({by or r[-1][0]})")
        yield r


def markdown(result: dict) -> str:
    t = result["totals"]
    lines = [f"### {result['model']}", "",
             "| configuration | distinct states | mutants derived | equivalent there | "
             "checked there | killed there first |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for c in result["configs"]:
        lines.append(f"| {c['config']} | {c['distinct_states']:,} | {c['derived']} | "
                     f"{c['equivalent']} | {c['checked']} | {c['killed']} |")
    for c in result["left_out"]:
        lines.append(f"| {c['config']} | {c['distinct_states']:,} | not run | | | |")
    by_w = t.get("killed_by_witness", 0)
    lines += ["", f"Mutants: {t['mutants']}: {t['killed']} killed"
              + (f" ({by_w} by a witness)" if by_w else "")
              + f", {t['survived']} survived, "
              f"{t['invalid']} invalid, {t['undecided']} undecided, {t['equivalent']} "
              f"equivalent; killed {t['kill_rate']} % of the {t['mutants'] - t['equivalent']} "
              f"non-equivalent mutants"
              + (f" ({t['kill_rate_without_witnesses']} % without the witnesses)" if by_w
                 else "") + ".", ""]
    if t.get("survived_same_figures"):
        lines += [f"Of the survivors, {t['survived_same_figures']} find exactly the original's "
                  "figures (distinct states, states generated) under every configuration "
                  "(marked *same*): the change is never exercised there, or only redirects "
                  "steps between states the original reaches anyway.", ""]
    witnessed = sorted({w for c in result["configs"] for w in c.get("witnesses", ())})
    if witnessed:
        lines += ["Witnesses (reached by the original under some configuration): "
                  + ", ".join(witnessed) + ".", ""]
    by_prop: dict[str, int] = {}
    for r in result["mutants"]:
        if r["fate"] == "killed":
            p = f"witness {r['property']}" if r.get("by_witness") else r["property"]
            by_prop[p] = by_prop.get(p, 0) + 1
    if by_prop:
        lines += ["Killed by: " + ", ".join(f"{p} {n}" for p, n in sorted(
            by_prop.items(), key=lambda kv: (-kv[1], kv[0]))) + ".", ""]
    rest = [r for r in result["mutants"] if r["fate"] in ("survived", "undecided", "invalid")]
    if rest:
        lines += ["| mutant | fate | change |", "| --- | --- | --- |"]
        for r in rest:
            change = r["change"].replace("|", "\\|")
            fate = r["fate"] + (", *same*" if r.get("same_figures") else "")
            lines.append(f"| `{r['id']}` | {fate} | {change} |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=sorted(MODELS),
                    help="this model only (repeatable)")
    ap.add_argument("--workers", type=int, default=1, help="mutants checked at once")
    ap.add_argument("--json", help="write every mutant's checks and fate to this file")
    ap.add_argument("--budget", type=int, default=3,
                    help="a check stops undecided past BUDGET times its original's distinct "
                         "states plus 10,000 (default 3)")
    ap.add_argument("--max-config-states", type=int, default=None,
                    help="leave out the configurations with more distinct states than this "
                         "(listed as not run)")
    ap.add_argument("--cache", help="a JSON file of earlier checks, reused when the .cfg, the "
                                    "modules, the mutant and the budget are the same")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument("--mutant", action="append", metavar="ID",
                    help="check only this mutant (repeatable; e.g. a survivor after an edit): "
                         "the totals then count these only")
    ap.add_argument("--no-witnesses", action="store_true",
                    help="ignore the witnesses files (kills by properties only)")
    args = ap.parse_args()
    cache_path = Path(args.cache) if args.cache else None
    cache = json.loads(cache_path.read_text()) if cache_path and cache_path.is_file() else {}

    def save():  # after every mutant: an interrupted run loses nothing
        if cache_path is not None:
            cache_path.write_text(json.dumps(cache) + "\n", encoding="utf-8")
    echo = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    results = []
    for model in args.only or list(MODELS):
        result = run_model(model, args.workers, echo, args.budget, cache, save,
                           args.max_config_states, not args.no_witnesses,
                           set(args.mutant or ()))
        results.append(result)
        print(markdown(result), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
