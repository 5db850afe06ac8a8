//! The order of the runs, drawn from the seed (`docs/replication.md` §3; randomized multiple interleaved
//! trials, Abedi & Brecht, ICPE 2017): block b (counted from 0) runs every bench target once per revision,
//! the revisions of each target in an order drawn at random for that block, so that drift of the machine
//! (heating, a background job winding down) weighs on both revisions alike and no fixed order favours one.
//!
//! Must not: start a run, or depend on anything but the blocks, the participants' targets and the seed
//! (the printed seed must give the same order again).

use crate::measure::prepare::participant::Participant;
use crate::stats::random::SplitMix64;

/// One run of one executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScheduledRun {
    pub block: u32,
    pub participant: usize,
    pub binary: usize,
}

/// Shuffles `items` uniformly (Fisher-Yates) with the crate's seeded generator ([`SplitMix64`], kept in this
/// crate because the printed seed must give the same order with every version of the dependencies, which
/// general-purpose generators do not promise).
fn shuffle<T>(rng: &mut SplitMix64, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The order of every run: `blocks` blocks, each running every target once per revision that has it, the
/// revisions of each target in a random order drawn from `seed` (a target of one revision only runs alone).
pub(crate) fn schedule(blocks: u32, participants: &[Participant], seed: u64) -> Vec<ScheduledRun> {
    let mut targets: Vec<&str> = Vec::new();
    for p in participants {
        for b in &p.binaries {
            if !targets.contains(&b.target.as_str()) {
                targets.push(&b.target);
            }
        }
    }
    let mut rng = SplitMix64::new(seed);
    let mut steps = Vec::new();
    for block in 0..blocks {
        for target in &targets {
            let mut who: Vec<usize> = (0..participants.len()).collect();
            shuffle(&mut rng, &mut who);
            for participant in who {
                let binaries = &participants[participant].binaries;
                for (binary, _) in binaries
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.target == *target)
                {
                    steps.push(ScheduledRun {
                        block,
                        participant,
                        binary,
                    });
                }
            }
        }
    }
    steps
}

/// `steps` cut into turns: the consecutive runs of one bench target in one block (one per participant that
/// has it, in the drawn order), which a runner may start one after another or together.
pub(crate) fn turns<'a>(
    steps: &'a [ScheduledRun],
    participants: &[Participant],
) -> Vec<&'a [ScheduledRun]> {
    let target = |s: &ScheduledRun| &participants[s.participant].binaries[s.binary].target;
    steps
        .chunk_by(|a, b| a.block == b.block && target(a) == target(b))
        .collect()
}

#[cfg(test)]
mod tests;
