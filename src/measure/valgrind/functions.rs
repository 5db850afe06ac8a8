//! Callgrind's out-files read function by function: each function's own cost and each call's inclusive
//! cost in one dump, and from two dumps of different batch sizes each function's inclusive instructions per
//! iteration (`docs/instruction-counts.md` §6).
//!
//! The format is Valgrind's documented one (Valgrind manual, "Callgrind Format Specification"): after the
//! header, `fn=` names the function the following cost lines belong to; `cfn=` names a callee, and the
//! `calls=COUNT POSITION` line after it is followed by one cost line, the inclusive cost of those calls
//! (the callee's own and its callees'). A cost line is its positions (as many as `positions:` names,
//! `line` by default; each a number, `+N`/`-N` relative to the last, or `*` the same) and then one count
//! per event of `events:`, those left out at the end being zero. Names are compressed: `(ID) NAME` the
//! first time, `(ID)` after; `fn=` and `cfn=` share one table. `fl=`, `fi=`, `fe=`, `ob=` and their callee
//! forms name files and objects, which are not needed here; `jump=` and `jcnd=` (written only under
//! `--collect-jumps=yes`) carry no cost. Callgrind demangles names by default (`--demangle=yes`, which is
//! how the runner starts it: `criterion::bencher::Bencher<M>::iter`, without the hash); a Rust symbol left
//! mangled (`--demangle=no`, or a scheme Valgrind does not know) is demangled here with `rustc-demangle`.
//!
//! A function's inclusive cost is its own cost plus the inclusive costs of the calls it makes, as
//! `callgrind_annotate --inclusive=yes` adds them. The number of calls to given functions in one dump
//! ([`calls_to`]) is read from the same `calls=` lines (`--count-allocations`, §8). The cost of "the routine" leaves out the harness: only
//! the functions called, directly or not, from the benchmark's routine count ([`CallGraph::routine`]).
//!
//! Must not: read files or start anything (the runner hands the texts in), or decide which changes matter
//! (the report orders them).

use std::collections::{BTreeMap, BTreeSet};

/// One dump's costs, in instructions (the `Ir` event), by function name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CallGraph {
    /// Each function's own cost (its cost lines outside calls).
    pub own: BTreeMap<String, u64>,
    /// Each call edge's inclusive cost, by (caller, callee): the calls' costs added over every call site.
    pub calls: BTreeMap<(String, String), u64>,
}

/// Reads one dump's call graph: `Err` with what is wrong when the text is not a callgrind dump with an
/// `Ir` event, or a compressed name is used before it is defined.
pub(crate) fn read_call_graph(text: &str) -> Result<CallGraph, String> {
    let mut graph = CallGraph::default();
    let mut names: BTreeMap<u64, String> = BTreeMap::new();
    let mut positions = 1;
    let mut column: Option<usize> = None;
    let mut function: Option<String> = None;
    let mut callee: Option<String> = None;
    // What the next cost line is: a call's cost (to the callee), or nothing (after `jump=`).
    enum Next {
        Own,
        Call(String),
        Skip,
    }
    let mut next = Next::Own;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((key, value)) = line.split_once('=')
            && key.bytes().all(|b| b.is_ascii_lowercase())
        {
            match key {
                "fn" => function = Some(name(value, &mut names, number)?),
                "cfn" => callee = Some(name(value, &mut names, number)?),
                "calls" => {
                    let to = callee.clone().ok_or(format!(
                        "line {}: `calls=` with no `cfn=` before it",
                        number + 1
                    ))?;
                    next = Next::Call(to);
                }
                "jump" | "jcnd" => next = Next::Skip,
                _ => {}
            }
            continue;
        }
        let first = line.as_bytes()[0];
        if first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'*') {
            let kind = std::mem::replace(&mut next, Next::Own);
            let Some(column) = column else {
                return Err(format!("line {}: a cost line before `events:`", number + 1));
            };
            let cost = match line.split_whitespace().nth(positions + column) {
                // A count left out at the end of a cost line is zero.
                None => 0,
                Some(count) => count
                    .parse::<u64>()
                    .map_err(|_| format!("line {}: `{count}` is not a count", number + 1))?,
            };
            let Some(caller) = function.clone() else {
                return Err(format!("line {}: a cost line before any `fn=`", number + 1));
            };
            match kind {
                Next::Own => *graph.own.entry(caller).or_default() += cost,
                Next::Call(to) => *graph.calls.entry((caller, to)).or_default() += cost,
                Next::Skip => {}
            }
            continue;
        }
        if let Some((key, value)) = line.split_once(':') {
            match key {
                "events" => {
                    let at = value.split_whitespace().position(|e| e == "Ir").ok_or(
                        "no `Ir` event (callgrind counts instructions unless told otherwise)",
                    )?;
                    column = Some(at);
                }
                "positions" => positions = value.split_whitespace().count().max(1),
                _ => {}
            }
        }
    }
    if column.is_none() {
        return Err("no `events:` line".to_string());
    }
    Ok(graph)
}

/// The calls one dump counts to the functions `callee` accepts, from functions it does not accept: the
/// `COUNT` of each `calls=COUNT POSITION` line whose `cfn=` it accepts, added over every caller and call
/// site. Callgrind writes the call graph by default and starts the counts again at each dump, so that they
/// are the calls of the dump's interval; a call from one accepted function to another (an allocator's shim
/// to its implementation) is not counted again.
/// `Err` as [`read_call_graph`] gives it, for a name used before it is defined or a `calls=` line with no
/// `cfn=` or no count.
pub(crate) fn calls_to(text: &str, callee: impl Fn(&str) -> bool) -> Result<u64, String> {
    let mut names: BTreeMap<u64, String> = BTreeMap::new();
    let (mut caller_counts, mut callee_counts) = (false, false);
    let mut count = 0u64;
    for (number, line) in text.lines().enumerate() {
        let Some((key, value)) = line.trim_end().split_once('=') else {
            continue;
        };
        match key {
            "fn" => caller_counts = callee(&name(value, &mut names, number)?),
            "cfn" => callee_counts = callee(&name(value, &mut names, number)?),
            "calls" => {
                let calls = value
                    .split_whitespace()
                    .next()
                    .and_then(|c| c.parse::<u64>().ok())
                    .ok_or(format!("line {}: `calls={value}` has no count", number + 1))?;
                if callee_counts && !caller_counts {
                    count = count.saturating_add(calls);
                }
            }
            _ => {}
        }
    }
    Ok(count)
}

/// A name of `fn=` or `cfn=`: `(ID) NAME` defines ID, `(ID)` refers to it, a bare `NAME` is itself; the
/// result demangled ([`demangle`]). `number` is the line's, from 0, for the error.
fn name(value: &str, names: &mut BTreeMap<u64, String>, number: usize) -> Result<String, String> {
    let value = value.trim();
    let Some(rest) = value.strip_prefix('(') else {
        return Ok(demangle(value));
    };
    let (id, given) = rest
        .split_once(')')
        .ok_or(format!("line {}: `({rest}` has no `)`", number + 1))?;
    let id: u64 = id
        .parse()
        .map_err(|_| format!("line {}: `({id})` is not a name's number", number + 1))?;
    let given = given.trim();
    if given.is_empty() {
        return names.get(&id).cloned().ok_or(format!(
            "line {}: the name `({id})` is used before it is defined",
            number + 1
        ));
    }
    let name = demangle(given);
    names.insert(id, name.clone());
    Ok(name)
}

/// A Rust symbol as a person reads it (`rustc-demangle`'s alternate form: the path without the hash);
/// any other name as it is. Callgrind's own demangling leaves nothing to do in the usual case.
pub(crate) fn demangle(name: &str) -> String {
    // A name may carry a symbol version (`memcpy@@GLIBC_2.14`): only the symbol is demangled.
    let (symbol, version) = match name.find('@') {
        Some(at) => name.split_at(at),
        None => (name, ""),
    };
    match rustc_demangle::try_demangle(symbol) {
        Ok(demangled) => format!("{demangled:#}{version}"),
        Err(_) => name.to_string(),
    }
}

impl CallGraph {
    /// Each function's inclusive cost in the dump: what `callgrind_annotate --inclusive=yes` gives, against
    /// which the tests check [`CallGraph::routine`]. Its own cost plus its calls' (a function that calls
    /// itself counts those calls once more, as `callgrind_annotate` does; callgrind names the deeper
    /// levels of a recursion apart, `f'2`, by default).
    #[cfg(test)]
    pub(crate) fn inclusive(&self) -> BTreeMap<String, u64> {
        let mut inclusive = self.own.clone();
        for ((caller, callee), cost) in &self.calls {
            *inclusive.entry(caller.clone()).or_default() += cost;
            inclusive.entry(callee.clone()).or_default();
        }
        inclusive
    }

    /// The inclusive cost of each function called, directly or not, from the benchmark's routine, counting
    /// only its calls from there: the routine is what a boundary frame of the harness
    /// ([`is_boundary`]: criterion's `Bencher::iter*`, divan's frames) calls, less the harness's own frames
    /// ([`is_harness_own`]: its clock reads and loop) and less what leads back into the harness's driving
    /// frames ([`is_driver`]: the closure that calls `Bencher::iter` is above the routine, not in it). A function's cost is the sum of
    /// the calls to it from the routine's functions or from a boundary, so that a function the harness
    /// also calls (`memcpy`) counts the routine's share only; a call of a function to itself is left out.
    pub(crate) fn routine(&self) -> BTreeMap<String, u64> {
        let mut callees: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (caller, callee) in self.calls.keys() {
            callees.entry(caller).or_default().push(callee);
        }
        // The functions from which the harness's driving frames can be reached (those among them).
        let mut leads_back: BTreeSet<&str> = BTreeSet::new();
        let mut changed = true;
        let all: BTreeSet<&str> = self
            .calls
            .keys()
            .flat_map(|(a, b)| [a.as_str(), b.as_str()])
            .collect();
        leads_back.extend(all.iter().copied().filter(|f| is_driver(f)));
        while changed {
            changed = false;
            for (caller, to) in &callees {
                if !leads_back.contains(caller) && to.iter().any(|t| leads_back.contains(t)) {
                    leads_back.insert(caller);
                    changed = true;
                }
            }
        }
        let roots = callees
            .iter()
            .filter(|(caller, _)| is_boundary(caller))
            .flat_map(|(_, to)| to.iter().copied())
            .filter(|f| !is_harness_own(f) && !leads_back.contains(f));
        let mut inside: BTreeSet<&str> = BTreeSet::new();
        let mut stack: Vec<&str> = roots.collect();
        while let Some(f) = stack.pop() {
            if inside.insert(f) {
                stack.extend(callees.get(f).into_iter().flatten().copied());
            }
        }
        let mut costs: BTreeMap<String, u64> = BTreeMap::new();
        for ((caller, callee), cost) in &self.calls {
            // A boundary's calls count to the routine's roots only, not to the harness's own frames.
            let from = inside.contains(caller.as_str())
                || (is_boundary(caller) && !is_harness_own(callee));
            if from && caller != callee && inside.contains(callee.as_str()) {
                *costs.entry(callee.clone()).or_default() += cost;
            }
        }
        costs
    }
}

/// A name's path without the leading `<` or reference of a `<T as Trait>` or `<T>` form.
fn path_of(name: &str) -> &str {
    let name = name.trim_start_matches('<').trim_start_matches('&');
    name.strip_prefix("mut ").unwrap_or(name)
}

/// Whether `name` is a harness boundary around the routine: criterion's `Bencher::iter*` (`iter`,
/// `iter_batched`, `iter_with_setup`, ...), or a frame of divan's (its sample loop is inlined where the
/// optimiser puts it: `divan::thread_pool::TaskShared<F>::new::call` in an optimised divan 0.1.21) other
/// than its allocation profiler (`divan::alloc::`), which the routine's own allocations call.
pub(crate) fn is_boundary(name: &str) -> bool {
    let path = path_of(name);
    let criterion = path.starts_with("criterion::bencher::Bencher")
        && path
            .rsplit("::")
            .next()
            .is_some_and(|last| last.starts_with("iter"));
    let divan = path.starts_with("divan::") && !path.starts_with("divan::alloc::");
    criterion || divan
}

/// Whether `name` drives the benchmark's runs, so that a function that calls it is above the routine (the
/// closure that calls criterion's `Bencher::iter*`; divan's benchmark function taking a `Bencher`): a
/// boundary of criterion's, or a frame of divan's runner (`divan::benchmark::`, `divan::thread_pool::`,
/// `divan::divan::`, `divan::entry::`), not one of its helpers a routine may call (`divan::black_box_drop`
/// in an unoptimised build).
fn is_driver(name: &str) -> bool {
    const DIVAN: [&str; 4] = [
        "divan::benchmark::",
        "divan::thread_pool::",
        "divan::divan::",
        "divan::entry::",
    ];
    let path = path_of(name);
    (is_boundary(name) && !path.starts_with("divan::")) || DIVAN.iter().any(|p| path.starts_with(p))
}

/// Whether a callee of a boundary is the harness's own work rather than the routine: a frame of the
/// standard library or of the harness (the clock reads, the loop's range, `black_box`), or one without a
/// path (a C function such as `clock_gettime`, an address without a symbol). A `<T as Trait>` frame is
/// the harness's when `T` is (a generic `I` counts by its trait).
pub(crate) fn is_harness_own(name: &str) -> bool {
    const OWN: [&str; 5] = ["core::", "std::", "alloc::", "criterion::", "divan::"];
    let path = path_of(name);
    if !path.contains("::") {
        return true;
    }
    let own = |p: &str| OWN.iter().any(|prefix| p.starts_with(prefix));
    match path.split_once(" as ") {
        Some((ty, trait_path)) if !ty.contains("::") => own(trait_path),
        Some((ty, _)) => own(ty),
        None => own(path),
    }
}

/// Each function's instructions per iteration from its costs in two dumps (`before`, `after`) whose
/// batches differ by `iterations`: (after − before) / iterations, the harness's constant part cancelling
/// as it does for the totals (`docs/instruction-counts.md` §2). A function in one dump only counts 0 in the
/// other; one whose difference is 0 is left out. Largest first, then by name.
pub(crate) fn per_iteration(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
    iterations: u64,
) -> Vec<(String, f64)> {
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let mut out: Vec<(String, f64)> = names
        .into_iter()
        .filter_map(|name| {
            let a = before.get(name).copied().unwrap_or(0) as f64;
            let b = after.get(name).copied().unwrap_or(0) as f64;
            let per = (b - a) / iterations.max(1) as f64;
            (per != 0.0).then(|| (name.clone(), per))
        })
        .collect();
    out.sort_by(|x, y| y.1.total_cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    out
}

#[cfg(test)]
mod tests;
