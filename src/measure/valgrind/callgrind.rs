//! Callgrind's out-files read: the instruction total of each cost dump of one process, in the order the
//! dumps were written (`docs/instruction-counts.md` §2), and the dump's total of every other event it
//! counts (the cache simulation's misses under `--cache-sim=yes`, §8).
//!
//! The format is Valgrind's documented one (Valgrind manual, "Callgrind Format Specification"): a header of
//! `key: value` lines, among them `pid:` (the process), `part:` (the dump's number, counted from 1 in the
//! order written; the dump at the program's end is the last), `events:` (the names of the cost columns, `Ir`
//! for instructions executed), `summary:` (the dump's total cost, one number per event), then the cost
//! lines, and `totals:` (the same total, written after them). Only the header and the totals are read.
//!
//! Must not: read files or start anything (the runner hands the texts in), or judge what the totals mean
//! (`estimate`).

use std::collections::BTreeMap;

/// What one dump file says of itself: its process, its place among that process's dumps and its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dump {
    /// The process that wrote it (`pid:`); `None` when the header does not say.
    pub pid: Option<u64>,
    /// Its number among the process's dumps (`part:`, from 1); `None` when the header does not say (a
    /// process that wrote a single dump).
    pub part: Option<u64>,
    /// The instructions executed in the dump's interval: the `Ir` column of `totals:` (else `summary:`).
    pub instructions: u64,
    /// The dump's total of each event of `events:`, `Ir` included, by name (`I1mr`, `DLmw`, ...): a column
    /// left out at the end of the total is zero.
    pub events: BTreeMap<String, u64>,
}

/// Reads one dump: `Err` with what is missing when the text is not a callgrind dump with an `Ir` total.
pub(crate) fn read_dump(text: &str) -> Result<Dump, String> {
    let mut events: Option<Vec<&str>> = None;
    let (mut totals, mut summary) = (None, None);
    let (mut pid, mut part) = (None, None);
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key {
            "events" => events = Some(value.split_whitespace().collect()),
            "totals" => totals = Some(value),
            "summary" => summary = Some(value),
            "pid" => pid = value.parse().ok(),
            "part" => part = value.parse().ok(),
            _ => {}
        }
    }
    let events = events.ok_or("no `events:` line")?;
    let column = events
        .iter()
        .position(|e| *e == "Ir")
        .ok_or("no `Ir` event (callgrind counts instructions unless told otherwise)")?;
    let costs = totals
        .or(summary)
        .ok_or("no `totals:` or `summary:` line")?;
    let counts = costs
        .split_whitespace()
        .map(str::parse::<u64>)
        .collect::<Result<Vec<u64>, _>>()
        .map_err(|_| format!("the total `{costs}` is not a count"))?;
    // A column left out at the end of a cost line is zero (the format's rule for cost lines).
    let events: BTreeMap<String, u64> = events
        .iter()
        .enumerate()
        .map(|(i, name)| (name.to_string(), counts.get(i).copied().unwrap_or(0)))
        .collect();
    Ok(Dump {
        pid,
        part,
        instructions: counts.get(column).copied().unwrap_or(0),
        events,
    })
}

/// The instruction totals of one process's dumps, in the order written (by `part:`; one without a part
/// last). `dumps` are every dump file of a run; when several processes wrote dumps, the one that wrote the
/// most is the benchmark's (a harness may start a short helper process; the lowest pid among equals).
#[cfg(test)]
pub(crate) fn totals_of_main_process(dumps: &[Dump]) -> Vec<u64> {
    main_process(dumps)
        .into_iter()
        .map(|i| dumps[i].instructions)
        .collect()
}

/// The indexes in `dumps` of the benchmark's process's dumps, in the order written (by `part:`; one
/// without a part last): when several processes wrote dumps, the one that wrote the most (the lowest pid
/// among equals).
pub(crate) fn main_process(dumps: &[Dump]) -> Vec<usize> {
    let mut by_pid: BTreeMap<Option<u64>, Vec<usize>> = BTreeMap::new();
    for (i, dump) in dumps.iter().enumerate() {
        by_pid.entry(dump.pid).or_default().push(i);
    }
    let Some(most) = by_pid.values().map(Vec::len).max() else {
        return vec![];
    };
    let Some(mut chosen) = by_pid.into_values().find(|d| d.len() == most) else {
        return vec![];
    };
    chosen.sort_by_key(|&i| dumps[i].part.unwrap_or(u64::MAX));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dump as the format specification writes one: two events, a cost line, the totals.
    const TWO_EVENTS: &str = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 41\n\
        cmd:  ./bench --bench\npart: 3\n\ndesc: Trigger: --dump-after=f\n\npositions: line\n\
        events: Dr Ir\nsummary: 7 1500\n\nfl=(1) a.rs\nfn=(1) f\n3 7 1500\n\ntotals: 7 1502\n";

    #[test]
    fn the_ir_column_of_the_totals_is_read_with_pid_and_part() {
        let dump = read_dump(TWO_EVENTS).unwrap();
        // `totals:` is preferred to `summary:` (written after the costs, the same number when whole).
        assert_eq!(
            (dump.pid, dump.part, dump.instructions),
            (Some(41), Some(3), 1502)
        );
        assert_eq!(
            dump.events,
            BTreeMap::from([("Dr".to_string(), 7), ("Ir".to_string(), 1502)])
        );
    }

    #[test]
    fn summary_serves_when_there_are_no_totals_and_a_missing_column_is_zero() {
        let text = "events: Ir Dr\nsummary: 900\n";
        let dump = read_dump(text).unwrap();
        assert_eq!((dump.pid, dump.part, dump.instructions), (None, None, 900));
        let text = "events: Dr Ir\nsummary: 900\n";
        assert_eq!(read_dump(text).unwrap().instructions, 0);
    }

    #[test]
    fn a_text_without_events_or_ir_or_totals_is_refused_saying_what_is_missing() {
        assert_eq!(read_dump("totals: 5\n").unwrap_err(), "no `events:` line");
        assert!(
            read_dump("events: Dr\ntotals: 5\n")
                .unwrap_err()
                .contains("no `Ir` event")
        );
        assert_eq!(
            read_dump("events: Ir\n").unwrap_err(),
            "no `totals:` or `summary:` line"
        );
        assert!(
            read_dump("events: Ir\ntotals: x\n")
                .unwrap_err()
                .contains("not a count")
        );
    }

    /// `fixtures/callgrind/true.out` was written by Valgrind 3.19 here (x86_64):
    /// `valgrind --tool=callgrind --callgrind-out-file=out.%p --dump-before=exit /bin/true`, the dump at
    /// the program's end (its part 2).
    #[test]
    fn a_dump_written_by_valgrind_3_19_is_read() {
        let text = include_str!("../../../fixtures/callgrind/true.out");
        let dump = read_dump(text).unwrap();
        assert_eq!(
            (dump.pid, dump.part, dump.instructions),
            (Some(10031), Some(2), 1242)
        );
        assert_eq!(dump.events, BTreeMap::from([("Ir".to_string(), 1242)]));
    }

    /// A dump's header and totals under `--cache-sim=yes`, with the events in the order Valgrind 3.19
    /// writes them, the last column left out as the format allows.
    #[test]
    fn every_event_of_a_cache_simulation_is_read_and_a_column_left_out_is_zero() {
        let text = "version: 1\ncreator: callgrind-3.19.0\npid: 5\npart: 3\npositions: line\n\
                    events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 20602 2431 94 2 7 1 2 5\n\
                    fn=(1) f\n3 20602 2431 94 2 7 1 2 5\ntotals: 20602 2431 94 2 7 1 2 5\n";
        let dump = read_dump(text).unwrap();
        assert_eq!(dump.instructions, 20_602);
        let expected = [
            ("Ir", 20_602),
            ("Dr", 2_431),
            ("Dw", 94),
            ("I1mr", 2),
            ("D1mr", 7),
            ("D1mw", 1),
            ("ILmr", 2),
            ("DLmr", 5),
            ("DLmw", 0),
        ];
        let expected: BTreeMap<String, u64> =
            expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        assert_eq!(dump.events, expected);
    }

    #[test]
    fn the_process_with_most_dumps_gives_its_totals_in_part_order() {
        let dump = |pid, part, instructions| Dump {
            pid: Some(pid),
            part,
            instructions,
            events: BTreeMap::new(),
        };
        let dumps = [
            dump(7, None, 99),
            dump(7, Some(2), 20),
            dump(3, Some(1), 5),
            dump(7, Some(1), 10),
            dump(3, None, 6),
            dump(7, Some(3), 30),
        ];
        assert_eq!(totals_of_main_process(&dumps), [10, 20, 30, 99]);
        // Two processes with as many dumps: the lower pid.
        assert_eq!(
            totals_of_main_process(&[dump(9, Some(1), 1), dump(4, Some(1), 2)]),
            [2]
        );
        assert!(totals_of_main_process(&[]).is_empty());
    }
}
