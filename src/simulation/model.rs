//! The known truth every simulation draws from: run values of the hierarchical model of
//! `docs/replication.md` §2, or resampled from recorded runs, on the stats' generator ([`SplitMix64`]).
//!
//! The model, on log times: `log y[l, r, i] = log mu + lambda[l] + beta[r] + eps[r, i] + drift · r`, with a
//! layout effect lambda drawn per run (one layout per run), a process effect beta per run, within-process
//! noise eps over [`SAMPLES_PER_RUN`] samples per run (the run's value is their median, as a criterion run's
//! is), and a linear drift over the runs, the same for both sides. A later version is the earlier one with
//! its level multiplied by the true change.
//!
//! The runs of a comparison in blocks ([`draw_blocked`]) add what the machine does to both runs of one block
//! (`docs/replication.md` §7): a shared block effect, drawn once per block and added to BASE's and HEAD's
//! run of it alike, beside each run's own layout and process effects and the drift; the runs carry their
//! block, as `measure/run/` tags them, so that `--paired` can pair them.
//!
//! The draws on the generator are the model's own, fixed so that a seed gives the figures of
//! `docs/racing.md` and `docs/bisect.md`: uniforms in the open (0, 1) (53 bits, centred in their interval),
//! Box-Muller normals from two of them (the cosine half), and an index below n as the remainder of 64 bits
//! (biased by less than n / 2^64). The stats' own `uniform`, `normal` and `below` round differently and
//! would draw other figures from the same seed.
//!
//! Pure: the generator is an argument.

#[cfg(test)]
use crate::model::Block;
use crate::model::{Run, Sample, Unit};
use crate::stats::random::SplitMix64;

/// Uniform in the open (0, 1).
pub(crate) fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// Standard normal (Box-Muller, the cosine half).
pub(crate) fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// An index in 0..n (n > 0): which benchmark's run, which position for the best, which commit.
pub(crate) fn index(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// The noise of one benchmark, as standard deviations of log times (0.01 is about 1 %).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Noise {
    /// Between processes (beta).
    pub process: f64,
    /// Within a process (eps), per sample.
    pub within: f64,
    /// Between layouts (lambda), one layout per run.
    pub layout: f64,
    /// Drift of log level per run, shared by both sides.
    pub drift: f64,
}

impl Noise {
    #[cfg(test)]
    /// A total log variance of `total²` of which the share `icc` is between processes.
    pub(crate) fn with_icc(total: f64, icc: f64) -> Noise {
        Noise {
            process: total * icc.sqrt(),
            within: total * (1.0 - icc).sqrt(),
            layout: 0.0,
            drift: 0.0,
        }
    }
}

/// Samples per simulated process run, as criterion's minimum that `cargo speedup` runs.
pub(crate) const SAMPLES_PER_RUN: usize = 10;

/// `count` process runs of one benchmark at level `mu`, in the order they ran.
pub(crate) fn draw_runs(rng: &mut SplitMix64, mu: f64, noise: Noise, count: usize) -> Vec<Run> {
    (0..count)
        .map(|block| {
            let level = mu.ln()
                + noise.layout * normal(rng)
                + noise.process * normal(rng)
                + noise.drift * block as f64;
            let samples = (0..SAMPLES_PER_RUN)
                .map(|_| (level + noise.within * normal(rng)).exp())
                .collect();
            Run::new(Sample::new(samples, Unit::Ns).expect("positive"), None)
        })
        .collect()
}

/// BASE's and HEAD's runs of one benchmark over `count` blocks, HEAD `factor` times slower: in block b each
/// side's log level is ln mu (+ ln factor for HEAD) + `block` · z_b + drift · b + its own layout and
/// process effects, z_b a standard normal shared by the block's two runs; each run is `SAMPLES_PER_RUN`
/// samples around its level and is tagged with block b of session 0. The correlation of a block's two run
/// levels is ρ = block² / (block² + layout² + process²) (`docs/replication.md` §7).
#[cfg(test)]
pub(crate) fn draw_blocked(
    rng: &mut SplitMix64,
    mu: f64,
    noise: Noise,
    block: f64,
    count: usize,
    factor: f64,
) -> (Vec<Run>, Vec<Run>) {
    let run = |rng: &mut SplitMix64, level: f64, b: usize| {
        let level = level + noise.layout * normal(rng) + noise.process * normal(rng);
        let samples = (0..SAMPLES_PER_RUN)
            .map(|_| (level + noise.within * normal(rng)).exp())
            .collect();
        let mut run = Run::new(Sample::new(samples, Unit::Ns).expect("positive"), None);
        run.set_block(Some(Block {
            session: 0,
            index: b as u32,
        }));
        run
    };
    let (mut base, mut head) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for b in 0..count {
        let shared = mu.ln() + block * normal(rng) + noise.drift * b as f64;
        base.push(run(rng, shared, b));
        head.push(run(rng, shared + factor.ln(), b));
    }
    (base, head)
}

/// Where a simulated benchmark's run values come from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// The hierarchical model.
    Model(Noise),
    /// Recorded run values, one list (of at least two) per benchmark: runs are drawn from a benchmark's
    /// list with replacement (the bootstrap), and scaled by the version's level.
    Recorded(&'a [Vec<f64>]),
}

impl Source<'_> {
    /// `count` run values of the `k`-th simulated benchmark at `level` times the base level (1000 ns for
    /// the model; a recorded benchmark's own).
    pub(crate) fn values(
        &self,
        rng: &mut SplitMix64,
        k: usize,
        level: f64,
        count: usize,
    ) -> Vec<f64> {
        match *self {
            Source::Model(noise) => draw_runs(rng, 1000.0 * level, noise, count)
                .iter()
                .map(Run::value)
                .collect(),
            Source::Recorded(pools) => {
                let pool = &pools[k % pools.len()];
                (0..count)
                    .map(|_| pool[index(rng, pool.len())] * level)
                    .collect()
            }
        }
    }
}

/// BASE's and HEAD's run values of the `k`-th simulated benchmark, `count` each, HEAD `factor` times
/// slower.
pub(crate) fn draw_values(
    rng: &mut SplitMix64,
    source: Source<'_>,
    k: usize,
    factor: f64,
    count: usize,
) -> (Vec<f64>, Vec<f64>) {
    let base = source.values(rng, k, 1.0, count);
    (base, source.values(rng, k, factor, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_runs_are_resampled_and_head_is_scaled() {
        let pools = vec![vec![10.0, 20.0], vec![7.0, 7.0]];
        let mut rng = SplitMix64::new(1);
        let (base, head) = draw_values(&mut rng, Source::Recorded(&pools), 1, 1.5, 4);
        assert_eq!((base, head), (vec![7.0; 4], vec![10.5; 4]));
        let (base, _) = draw_values(&mut rng, Source::Recorded(&pools), 0, 1.0, 50);
        assert!(base.iter().all(|v| *v == 10.0 || *v == 20.0));
        assert!(base.contains(&10.0) && base.contains(&20.0));
    }

    #[test]
    fn the_draws_are_those_of_the_documented_figures() {
        // SplitMix64 from state 0 gives 0xe220a8397b1dcdaf first: its top 53 bits, centred, over 2^53.
        let mut rng = SplitMix64::new(0);
        let expected = ((0xe220_a839_7b1d_cdafu64 >> 11) as f64 + 0.5) / 2f64.powi(53);
        assert_eq!(uniform(&mut rng), expected);
        // The second is 0x6e789e6aa1b965f4, an index by its remainder.
        assert_eq!(
            index(&mut rng, 10),
            (0x6e78_9e6a_a1b9_65f4u64 % 10) as usize
        );
    }
}
