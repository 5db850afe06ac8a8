//! The loop of looks on a mock runner: no process starts; each run "measures" the value a table gives its
//! side and benchmark, a failure comes on demand, and each run advances a clock by one second, so that
//! what the loop does (how many blocks, where it stops, what it leaves out) is checked against numbers
//! worked out by hand from the plan.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use super::*;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::run::runner::{RunError, Start, Turn};
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Design, Run, Runs, Sample, Suite, Unit};
use crate::protocol::sequential::{LookDecision, LookPlan, decide_look};
use crate::protocol::{FailOn, Options};

/// A clock that only moves when the mock runner runs.
#[derive(Default)]
struct FakeClock(Cell<Duration>);

impl Clock for FakeClock {
    fn since_start(&self) -> Duration {
        self.0.get()
    }
}

/// One run the mock was asked for: (side's slug, target, block, filter).
type Started = (String, String, u32, Option<String>);

/// The runs of one turn as the scheduler handed them: the (slug, target, block) of each.
type HeldTurn = Vec<(String, String, u32)>;

/// A runner that answers from a table: `value(slug, benchmark, block)` in nanoseconds; the targets and
/// their benchmarks; the (slug, target) pairs whose every run fails as a panic does.
struct Mock<'a> {
    targets: Vec<(&'static str, Vec<&'static str>)>,
    value: &'a dyn Fn(&str, &str, u32) -> f64,
    failing: Vec<(&'static str, &'static str)>,
    clock: &'a FakeClock,
    started: RefCell<Vec<Started>>,
    /// The turns as the scheduler handed them.
    turns: RefCell<Vec<HeldTurn>>,
    saved: RefCell<HashMap<(String, u32), Vec<Benchmark>>>,
}

impl<'a> Mock<'a> {
    fn new(
        targets: Vec<(&'static str, Vec<&'static str>)>,
        value: &'a dyn Fn(&str, &str, u32) -> f64,
        clock: &'a FakeClock,
    ) -> Mock<'a> {
        Mock {
            targets,
            value,
            failing: vec![],
            clock,
            started: RefCell::default(),
            turns: RefCell::default(),
            saved: RefCell::default(),
        }
    }

    fn names(&self, target: &str) -> Vec<String> {
        self.targets
            .iter()
            .filter(|(t, _)| *t == target)
            .flat_map(|(_, names)| names.iter().map(|n| n.to_string()))
            .collect()
    }

    /// The runs started at `slug`, in order.
    fn started_at(&self, slug: &str) -> Vec<Started> {
        self.started
            .borrow()
            .iter()
            .filter(|s| s.0 == slug)
            .cloned()
            .collect()
    }
}

/// The names a narrowed criterion filter (`^(?:a|b)$`, names without special characters) selects.
fn selected(filter: &str) -> Vec<String> {
    let inner = filter
        .strip_prefix("^(?:")
        .and_then(|f| f.strip_suffix(")$"))
        .expect("an exact filter");
    inner.split('|').map(str::to_string).collect()
}

impl Runner for Mock<'_> {
    fn list(
        &self,
        binary: &BenchBinary,
        _filter: Option<&str>,
        _label: &str,
    ) -> Result<Vec<String>, MeasureError> {
        Ok(self.names(&binary.target))
    }

    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError> {
        let (slug, target) = (&start.participant.slug, &start.binary.target);
        self.clock
            .0
            .set(self.clock.0.get() + Duration::from_secs(1));
        self.started.borrow_mut().push((
            slug.clone(),
            target.clone(),
            start.block,
            start.filter.clone(),
        ));
        if self.failing.iter().any(|&(s, t)| s == slug && t == target) {
            return Err(RunError::Failed {
                error: Box::new(MeasureError::NoSamples {
                    revision: slug.clone(),
                }),
                code: Some(101),
                stderr: "thread 'main' panicked at benches/b.rs:1:1:\nboom".into(),
            });
        }
        let names = match &start.filter {
            Some(filter) => selected(filter),
            None => self.names(target),
        };
        let mut saved = self.saved.borrow_mut();
        let run = saved.entry((slug.clone(), start.block)).or_default();
        for name in names {
            let value = (self.value)(slug, &name, start.block);
            let sample = Sample::new(vec![value], Unit::Ns).unwrap();
            run.push(Benchmark {
                name,
                runs: Runs::new(vec![Run::new(sample, None)]).unwrap(),
                unit: Unit::Ns,
                counters: vec![],
            });
        }
        Ok(())
    }

    fn start_turn(&self, runs: &[Start<'_>], turn: &mut dyn Turn) -> Result<(), MeasureError> {
        let held = runs
            .iter()
            .map(|s| (s.participant.slug.clone(), s.binary.target.clone(), s.block))
            .collect();
        self.turns.borrow_mut().push(held);
        for (index, start) in runs.iter().enumerate() {
            if turn.goes(index) {
                let outcome = self.start_one(start);
                turn.ended(index, outcome)?;
            }
        }
        Ok(())
    }

    fn read(&self, participant: &Participant, block: u32) -> Result<Results, MeasureError> {
        let saved = self.saved.borrow();
        Ok(Results {
            origin: participant.slug.clone(),
            benchmarks: saved
                .get(&(participant.slug.clone(), block))
                .cloned()
                .unwrap_or_default(),
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        })
    }

    fn lengths(
        &self,
        _participant: &Participant,
        _block: u32,
    ) -> Vec<crate::measure::prepare::bench_settings::RunLength> {
        vec![]
    }

    fn clear(&self, _participants: &[Participant]) -> Result<(), MeasureError> {
        Ok(())
    }
}

fn side(slug: &str, targets: &[&str]) -> Participant {
    Participant::for_tests(&slug.to_uppercase(), slug, targets)
}

/// The settings of the bench files as the default command line leaves them: nothing found, rewritten.
fn bench() -> BenchSettings {
    let args = crate::cli::RunArgs::default();
    BenchSettings::new(&crate::plan::run_options(&args, false, None).unwrap())
}

fn settings(plan: &LookPlan, budget: Option<Duration>, seed: u64) -> LookSettings<'_> {
    LookSettings {
        look_plan: plan,
        runs: plan.min(),
        budget,
        seed,
        filter: None,
        keep_runs: false,
        warm_up_secs: 0.1,
        measurement_secs: 0.2,
    }
}

/// A stand-in for the analysis: a benchmark is decided once the means of its runs at BASE and HEAD
/// differ by more than 10 %; `asked` counts the looks it was asked at.
fn by_means(asked: &Cell<u32>) -> impl Fn(&Results, &Results, u32) -> LookDecision + '_ {
    move |base: &Results, head: &Results, _looks: u32| {
        asked.set(asked.get() + 1);
        let mean = |r: &Results, name: &str| {
            let values = r
                .benchmarks
                .iter()
                .find(|b| b.name == name)
                .map_or(vec![], |b| b.runs.values());
            values.iter().sum::<f64>() / values.len().max(1) as f64
        };
        let open: Vec<String> = base
            .benchmarks
            .iter()
            .filter(|b| {
                let (a, h) = (mean(base, &b.name), mean(head, &b.name));
                (a - h).abs() <= 0.1 * a
            })
            .map(|b| b.name.clone())
            .collect();
        LookDecision {
            decided: base.benchmarks.len() - open.len(),
            open,
            out_of_reach_at_cap: vec![],
            reference_pct: 0.0,
            stopped: 0,
        }
    }
}

/// Runs the loop of a pair over `mock` with `decide`.
fn run_pair(
    mock: &mut Mock<'_>,
    settings: &LookSettings<'_>,
    decide: Decide<'_>,
    clock: &FakeClock,
) -> (Result<Vec<Results>, MeasureError>, bool) {
    let participants = [side("base", &["t"]), side("head", &["t"])];
    let bench = bench();
    let ready = Ready {
        participants: &participants,
        part: None,
        bench: &bench,
        may_tell: false,
    };
    let stop = EarlyStop {
        decide: Some(Decider::Pair(decide)),
        clock,
        cut_by_budget: Default::default(),
    };
    let results = run_until_decided(mock, ready, settings, &Progress::new(true), &stop);
    (results, stop.cut_by_budget.get())
}

/// Each run's value: `level` at every block, but for a spread of ±1 % that alternates with the block.
fn level(level: f64) -> impl Fn(&str, &str, u32) -> f64 {
    move |_, _, block| level * if block % 2 == 0 { 0.99 } else { 1.01 }
}

#[test]
fn a_clear_difference_stops_at_the_first_look() {
    // HEAD twice as fast in every run: 6 runs a side all apart give the rank-sum test p = 2/924 = 0.0022,
    // below alpha / 3 looks = 0.0167, so the first look decides it and no further block runs.
    let clock = FakeClock::default();
    let value = |slug: &str, _: &str, block: u32| {
        let base = if slug == "base" { 200.0 } else { 100.0 };
        base * (1.0 + f64::from(block) / 1000.0)
    };
    let mut mock = Mock::new(vec![("t", vec!["a"])], &value, &clock);
    let plan = LookPlan::new(6, 24).unwrap();
    assert_eq!(plan.looks(), [6, 12, 24]);
    let options = Options::defaults(FailOn::Suite);
    let decide = |base: &Results, head: &Results, looks: u32| {
        let so_far = Suite {
            design: Design::measured(looks),
            ..Suite::pair(base.clone(), head.clone())
        };
        decide_look(&so_far, &options, 24)
    };
    let (results, cut) = run_pair(&mut mock, &settings(&plan, None, 1), &decide, &clock);
    let results = results.unwrap();
    assert!(!cut);
    assert_eq!(mock.started.borrow().len(), 12);
    assert!(mock.started.borrow().iter().all(|s| s.2 < 6));
    assert_eq!(results[0].benchmarks[0].runs.len(), 6);
    assert_eq!(results[1].benchmarks[0].runs.len(), 6);
}

#[test]
fn equal_values_run_to_the_last_look_and_stop_there() {
    let clock = FakeClock::default();
    let value = level(100.0);
    let mut mock = Mock::new(vec![("t", vec!["a", "b"])], &value, &clock);
    let plan = LookPlan::new(4, 16).unwrap();
    let asked = Cell::new(0);
    let decide = by_means(&asked);
    let (results, cut) = run_pair(&mut mock, &settings(&plan, None, 1), &decide, &clock);
    let results = results.unwrap();
    assert!(!cut);
    // Looks after 4, 8 and 16 runs: asked after the first two only; 16 blocks of one run a side.
    assert_eq!(asked.get(), 2);
    assert_eq!(mock.started_at("base").len(), 16);
    assert_eq!(mock.started_at("head").len(), 16);
    for side in &results {
        let runs: Vec<usize> = side.benchmarks.iter().map(|b| b.runs.len()).collect();
        assert_eq!(runs, [16, 16]);
        assert!(side.notes.is_empty(), "{:?}", side.notes);
    }
}

#[test]
fn a_decided_benchmark_stops_and_the_open_one_runs_on_alone() {
    let clock = FakeClock::default();
    // `fast` is twice as fast at HEAD; `same` is the same at both.
    let value = |slug: &str, name: &str, _: u32| match (slug, name) {
        ("base", "fast") => 200.0,
        _ => 100.0,
    };
    let mut mock = Mock::new(vec![("t", vec!["fast", "same"])], &value, &clock);
    let plan = LookPlan::new(4, 8).unwrap();
    let asked = Cell::new(0);
    let decide = by_means(&asked);
    let (results, _) = run_pair(&mut mock, &settings(&plan, None, 1), &decide, &clock);
    let results = results.unwrap();
    // After the first look the runs are narrowed to `same`, by its exact name.
    let later: Vec<Option<String>> = mock
        .started
        .borrow()
        .iter()
        .filter(|s| s.2 >= 4)
        .map(|s| s.3.clone())
        .collect();
    assert_eq!(later.len(), 8);
    assert!(later.iter().all(|f| f.as_deref() == Some("^(?:same)$")));
    let runs = |r: &Results, name: &str| {
        r.benchmarks
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.runs.len())
    };
    assert_eq!(
        (runs(&results[0], "fast"), runs(&results[0], "same")),
        (Some(4), Some(8))
    );
    // Stopped early, decided: no note that it missed runs.
    assert!(results[0].notes.is_empty(), "{:?}", results[0].notes);
}

#[test]
fn the_budget_stops_the_runs_before_a_look_it_leaves_no_time_for() {
    // Every run takes 1 s on the clock; a block is 2 runs (one a side), 2 s. After the first look (2
    // blocks, 4 s) the look after 4 runs costs 2 more blocks, 4 s: 8 s <= 10 s, it runs. The look after
    // 8 runs would cost 4 blocks, 8 s: 8 s + 8 s > 10 s, so the runs end at 4 blocks, cut by the budget.
    let clock = FakeClock::default();
    let value = level(100.0);
    let mut mock = Mock::new(vec![("t", vec!["a"])], &value, &clock);
    let plan = LookPlan::new(2, 8).unwrap();
    assert_eq!(plan.looks(), [2, 4, 8]);
    let asked = Cell::new(0);
    let decide = by_means(&asked);
    let budget = Some(Duration::from_secs(10));
    let (results, cut) = run_pair(&mut mock, &settings(&plan, budget, 1), &decide, &clock);
    let results = results.unwrap();
    assert!(cut);
    assert_eq!(mock.started.borrow().len(), 8);
    assert_eq!(results[0].benchmarks[0].runs.len(), 4);
    assert_eq!(clock.since_start(), Duration::from_secs(8));
}

#[test]
fn a_budget_without_time_for_one_block_is_an_error_before_any_run() {
    let clock = FakeClock(Cell::new(Duration::from_secs(10)));
    let value = level(100.0);
    let mut mock = Mock::new(vec![("t", vec!["a"])], &value, &clock);
    let plan = LookPlan::fixed(4).unwrap();
    let asked = Cell::new(0);
    let decide = by_means(&asked);
    let budget = Some(Duration::from_secs(10));
    let (results, _) = run_pair(&mut mock, &settings(&plan, budget, 1), &decide, &clock);
    match results {
        Err(MeasureError::Option { flag, .. }) => assert_eq!(flag, "--budget"),
        other => panic!("{other:?}"),
    }
    assert!(mock.started.borrow().is_empty());
}

#[test]
fn a_target_that_fails_at_one_side_is_left_out_there_and_the_rest_compared() {
    let clock = FakeClock::default();
    let value = level(100.0);
    let mut mock = Mock::new(
        vec![("fine", vec!["fine/one"]), ("boom", vec!["boom/one"])],
        &value,
        &clock,
    );
    mock.failing = vec![("head", "boom")];
    let plan = LookPlan::fixed(3).unwrap();
    let participants = [
        side("base", &["fine", "boom"]),
        side("head", &["fine", "boom"]),
    ];
    let bench = bench();
    let ready = Ready {
        participants: &participants,
        part: None,
        bench: &bench,
        may_tell: false,
    };
    let stop = EarlyStop {
        decide: None,
        clock: &clock,
        cut_by_budget: Default::default(),
    };
    let results = run_until_decided(
        &mut mock,
        ready,
        &settings(&plan, None, 9),
        &Progress::new(true),
        &stop,
    )
    .unwrap();
    let names = |r: &Results| {
        r.benchmarks
            .iter()
            .map(|b| b.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&results[0]), ["fine/one"]);
    assert_eq!(names(&results[1]), ["fine/one"]);
    assert!(results[0].left_out.is_empty());
    assert_eq!(
        results[1].left_out,
        [LeftOut::target(
            "boom",
            None,
            Reason::Failed {
                failed: 1,
                runs: 1,
                exit_codes: vec![Some(101)],
                message: "thread 'main' panicked at benches/b.rs:1:1:\nboom".into(),
            }
        )]
    );
    // HEAD never runs it again; BASE at most once more, to tell it from a target that fails everywhere.
    let boom = |slug| {
        mock.started_at(slug)
            .iter()
            .filter(|s| s.1 == "boom")
            .count()
    };
    assert_eq!(boom("head"), 1);
    assert!(boom("base") <= 2, "{}", boom("base"));
    let fine = |slug| {
        mock.started_at(slug)
            .iter()
            .filter(|s| s.1 == "fine")
            .count()
    };
    assert_eq!((fine("base"), fine("head")), (3, 3));
}

/// The order of a fixed plan's runs over two targets with `seed`.
fn order(seed: u64) -> (Vec<Started>, Vec<HeldTurn>) {
    let clock = FakeClock::default();
    let value = level(100.0);
    let mut mock = Mock::new(vec![("x", vec!["x"]), ("y", vec!["y"])], &value, &clock);
    let plan = LookPlan::fixed(16).unwrap();
    let participants = [side("base", &["x", "y"]), side("head", &["x", "y"])];
    let bench = bench();
    let ready = Ready {
        participants: &participants,
        part: None,
        bench: &bench,
        may_tell: false,
    };
    let stop = EarlyStop {
        decide: None,
        clock: &clock,
        cut_by_budget: Default::default(),
    };
    run_until_decided(
        &mut mock,
        ready,
        &settings(&plan, None, seed),
        &Progress::new(true),
        &stop,
    )
    .unwrap();
    (mock.started.take(), mock.turns.take())
}

#[test]
fn the_seed_decides_the_order_of_the_runs_and_repeats_it() {
    let (first, turns) = order(3);
    assert_eq!(first.len(), 64);
    assert_eq!(order(3).0, first);
    assert_ne!(order(4).0, first);
    // Each turn is one target in one block, run once at each side; every block runs both targets.
    assert_eq!(turns.len(), 32);
    for turn in &turns {
        let mut sides: Vec<&str> = turn.iter().map(|r| r.0.as_str()).collect();
        sides.sort();
        assert_eq!(sides, ["base", "head"], "{turn:?}");
        assert!(turn.iter().all(|r| (&r.1, r.2) == (&turn[0].1, turn[0].2)));
    }
    for block in 0..16 {
        let targets: Vec<&str> = turns
            .iter()
            .filter(|t| t[0].2 == block)
            .map(|t| t[0].1.as_str())
            .collect();
        assert_eq!(targets, ["x", "y"], "block {block}");
    }
    // The side that goes first in a turn is drawn: over 32 turns BASE leads in some and HEAD in others.
    let base_first = turns.iter().filter(|t| t[0].0 == "base").count();
    assert!((1..32).contains(&base_first), "{base_first}");
}
