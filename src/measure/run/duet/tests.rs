//! The duet runner on a mock of the process runner: no process starts. Each mock run records the core it
//! was given and whether the other run of its wave arrived while it waited (a rendezvous with a deadline of
//! two seconds, which runs started together meet within milliseconds and runs started one after another
//! never meet), so that "started together" is observed, not inferred from timings.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::*;
use crate::measure::prepare::participant::Participant;

/// How long a mock run waits for the other run of its wave.
const DEADLINE: Duration = Duration::from_secs(2);

/// One mock run: (the revision's slug, the core it was given, whether its partner arrived).
type Ran = (String, Option<usize>, bool);

#[derive(Default)]
struct Mock {
    arrived: AtomicUsize,
    ran: Mutex<Vec<Ran>>,
    /// Slugs whose runs fail.
    failing: Vec<&'static str>,
}

impl Runner for Mock {
    fn list(&self, _: &BenchBinary, _: Option<&str>, _: &str) -> Result<Vec<String>, MeasureError> {
        Ok(vec![])
    }
    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError> {
        self.start_on(start, None)
    }
    fn read(&self, participant: &Participant, _: u32) -> Result<Results, MeasureError> {
        Err(MeasureError::NoSamples {
            revision: participant.slug.clone(),
        })
    }
    fn lengths(&self, _: &Participant, _: u32) -> Vec<RunLength> {
        vec![]
    }
    fn clear(&self, _: &[Participant]) -> Result<(), MeasureError> {
        Ok(())
    }
}

impl StartOn for Mock {
    fn start_on(&self, start: &Start<'_>, core: Option<usize>) -> Result<(), RunError> {
        // Runs arrive in waves of two: the partner of arrival a is the other of arrivals 2⌊a/2⌋ and +1.
        let a = self.arrived.fetch_add(1, Ordering::SeqCst);
        let wave_full = (a / 2) * 2 + 2;
        let since = Instant::now();
        let mut met = false;
        while since.elapsed() < DEADLINE {
            if self.arrived.load(Ordering::SeqCst) >= wave_full {
                met = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let slug = start.participant.slug.clone();
        self.ran.lock().unwrap().push((slug.clone(), core, met));
        if self.failing.contains(&slug.as_str()) {
            return Err(RunError::Failed {
                error: Box::new(MeasureError::NoSamples { revision: slug }),
                code: Some(101),
                stderr: "thread 'main' panicked".into(),
            });
        }
        Ok(())
    }
}

/// A turn that lets every run go but those in `skip`, and keeps each outcome: (index, it failed).
#[derive(Default)]
struct Kept {
    skip: Vec<usize>,
    asked: Vec<usize>,
    ended: Vec<(usize, bool)>,
}

impl Turn for Kept {
    fn goes(&mut self, index: usize) -> bool {
        self.asked.push(index);
        !self.skip.contains(&index)
    }
    fn ended(&mut self, index: usize, outcome: Result<(), RunError>) -> Result<(), MeasureError> {
        self.ended.push((index, outcome.is_err()));
        Ok(())
    }
}

fn participants(slugs: &[&str]) -> Vec<Participant> {
    slugs
        .iter()
        .map(|s| Participant::for_tests(&s.to_uppercase(), s, &["benches"]))
        .collect()
}

/// The starts of one turn: block 0 of target `benches`, in the order of `participants`.
fn turn_of(participants: &[Participant]) -> Vec<Start<'_>> {
    participants
        .iter()
        .map(|p| Start {
            participant: p,
            binary: &p.binaries[0],
            block: 0,
            filter: None,
        })
        .collect()
}

/// The runs as recorded, sorted by slug (threads record in any order).
fn ran(mock: &Mock) -> Vec<Ran> {
    let mut ran = mock.ran.lock().unwrap().clone();
    ran.sort();
    ran
}

#[test]
fn the_two_runs_of_a_turn_start_together_each_on_its_own_core() {
    let ps = participants(&["base", "head"]);
    let runner = DuetRunner::on(Mock::default(), Some([2, 5]));
    let mut turn = Kept::default();
    runner.start_turn(&turn_of(&ps), &mut turn).unwrap();
    assert_eq!(
        ran(&runner.inner),
        vec![
            ("base".to_string(), Some(2), true),
            ("head".to_string(), Some(5), true)
        ]
    );
    let mut ended = turn.ended.clone();
    ended.sort();
    assert_eq!(ended, vec![(0, false), (1, false)]);
    assert_eq!(turn.asked, vec![0, 1]);
}

#[test]
fn the_run_drawn_first_takes_the_first_core() {
    let ps = participants(&["head", "base"]);
    let runner = DuetRunner::on(Mock::default(), Some([0, 1]));
    runner
        .start_turn(&turn_of(&ps), &mut Kept::default())
        .unwrap();
    assert_eq!(
        ran(&runner.inner),
        vec![
            ("base".to_string(), Some(1), true),
            ("head".to_string(), Some(0), true)
        ]
    );
}

#[test]
fn three_revisions_start_in_waves_of_two() {
    let ps = participants(&["a", "b", "c"]);
    let runner = DuetRunner::on(Mock::default(), Some([0, 1]));
    runner
        .start_turn(&turn_of(&ps), &mut Kept::default())
        .unwrap();
    assert_eq!(
        ran(&runner.inner),
        vec![
            ("a".to_string(), Some(0), true),
            ("b".to_string(), Some(1), true),
            ("c".to_string(), Some(0), false)
        ]
    );
}

#[test]
fn a_run_the_scheduler_stops_is_not_started_and_its_partner_runs_alone() {
    let ps = participants(&["base", "head"]);
    let runner = DuetRunner::on(Mock::default(), Some([0, 1]));
    let mut turn = Kept {
        skip: vec![0],
        ..Kept::default()
    };
    runner.start_turn(&turn_of(&ps), &mut turn).unwrap();
    assert_eq!(
        ran(&runner.inner),
        vec![("head".to_string(), Some(0), false)]
    );
    assert_eq!(turn.ended, vec![(1, false)]);
}

#[test]
fn a_failed_run_reaches_the_scheduler_beside_its_partner_s_success() {
    let ps = participants(&["base", "head"]);
    let mock = Mock {
        failing: vec!["head"],
        ..Mock::default()
    };
    let runner = DuetRunner::on(mock, Some([0, 1]));
    let mut turn = Kept::default();
    runner.start_turn(&turn_of(&ps), &mut turn).unwrap();
    let mut ended = turn.ended.clone();
    ended.sort();
    assert_eq!(ended, vec![(0, false), (1, true)]);
    assert!(ran(&runner.inner).iter().all(|r| r.2), "both ran together");
}

#[test]
fn without_two_cores_the_runs_start_one_after_another_unpinned() {
    let ps = participants(&["base", "head"]);
    let runner = DuetRunner::on(Mock::default(), None);
    runner
        .start_turn(&turn_of(&ps), &mut Kept::default())
        .unwrap();
    // In order: the first waited for a partner that never came (the second, started after it ended, finds
    // the first already arrived).
    assert_eq!(
        *runner.inner.ran.lock().unwrap(),
        vec![
            ("base".to_string(), None, false),
            ("head".to_string(), None, true)
        ]
    );
}
