//! The EM iterations of `mixture.rs` (`docs/mixtures.md` §2 and §7), written for speed: the shape step runs
//! about 50,000 component-by-value terms per side, and this loop is the larger part of the analysis' time.
//!
//! - Same algorithm, same start, same stopping rule as the description in `mixture.rs`: an M-step on the hard
//!   partition, then E-step / test / M-step until |L_t − L_{t−1}| ≤ tol (1 + |L_t|) or the iteration cap; a
//!   singular fit (variance at the floor, an emptied component) is `None`. The fits agree with the textbook
//!   loop to about 10⁻¹² relative (the order of the sums and the exponential differ, not the iterates).
//! - E-step in base 2, over arrays the compiler vectorises: t_ij = log₂(π_j/σ_j) − (x_i − μ_j)² log₂e/(2σ_j²),
//!   its maximum over j per value, and 2^(t_ij − max) from [`exp2_nonpositive`] (Cody–Waite reduction to
//!   |r| ≤ ½ and a degree-11 Chebyshev fit of 2^r, error under 3·10⁻¹⁸ before rounding, about 2 ulp after),
//!   which unlike the C library's `exp` is branch-free and so runs two or four lanes at a time. Terms below
//!   2^−1020 count as 0: a row's sum is at least 1 and cannot feel them.
//! - L = Σ_i [ln 2 · max_i + ln Σ_j 2^(t_ij − max_i)] − (n/2) ln 2π, the row sums multiplied in blocks that
//!   cannot overflow (each sum is in [1, K]) and one logarithm taken per block.
//! - M-step fused into one pass: n_j = Σ α_ij, S1 = Σ α_ij d_ij and S2 = Σ α_ij d_ij² with d_ij = x_i − μ_j at
//!   the previous μ_j, so μ_j moves by S1/n_j and the weighted sum of squares is S2 − S1²/n_j: the shift is
//!   small next to σ_j once EM has started, so the subtraction loses no digits that matter. Sums run in four
//!   lanes.
//! - On x86-64 with AVX2 the same code is compiled a second time for AVX2 and chosen at run time (one
//!   `unsafe` call, checked by `is_x86_feature_detected!`). Neither copy uses fused multiply-adds, so both
//!   give the same bits (tested): a report does not depend on the processor it was computed on.
//!
//! Must not: allocate per iteration, read anything but its arguments (and which instructions the processor
//! has), or change the fit it converges to.

use super::mixture_density::VarianceModel;

const LN_2PI: f64 = 1.837_877_066_409_345_3;
const LOG2_E: f64 = std::f64::consts::LOG2_E;
const LN_2: f64 = std::f64::consts::LN_2;

/// 2^r on [−½, ½]: the degree-11 Chebyshev fit, lowest power first (error 3·10⁻¹⁸, below rounding).
const EXP2: [f64; 12] = [
    1.0,
    LN_2,
    0.240_226_506_959_101_58,
    0.055_504_108_664_821_625,
    0.009_618_129_107_587_256,
    0.001_333_355_814_640_647,
    0.000_154_035_304_637_243_53,
    1.525_273_384_155_677_3e-5,
    1.321_543_253_591_237_5e-6,
    1.017_805_708_773_394_1e-7,
    7.074_194_297_288_521e-9,
    4.455_817_908_336_064_5e-10,
];

/// 1.5·2⁵²: adding it rounds to the nearest integer, which then sits in the low bits of the sum.
const ROUND: f64 = 6_755_399_441_055_744.0;

/// Below this power of 2 a term is 0 (and 2^x stays a normal number above it).
const LOWEST: f64 = -1020.0;

/// 2^x for x ≤ 0, and 0 below 2^−1020. Branch-free, so that a loop over a slice vectorises.
#[inline(always)]
fn exp2_nonpositive(x: f64) -> f64 {
    let clamped = x.max(LOWEST);
    let shifted = clamped + ROUND;
    let whole = shifted - ROUND;
    let r = clamped - whole;
    let (r2, c) = (r * r, &EXP2);
    let r4 = r2 * r2;
    let low = (c[0] + c[1] * r) + (c[2] + c[3] * r) * r2;
    let middle = (c[4] + c[5] * r) + (c[6] + c[7] * r) * r2;
    let high = (c[8] + c[9] * r) + (c[10] + c[11] * r) * r2;
    let p = low + middle * r4 + high * (r4 * r4);
    // The rounded integer, from the low bits of `shifted`, becomes the exponent of 2^whole.
    let integer = shifted.to_bits().wrapping_sub(ROUND.to_bits());
    let scale = f64::from_bits(integer.wrapping_add(1023) << 52);
    if x < LOWEST { 0.0 } else { p * scale }
}

/// One component on the centred scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Param {
    /// π_j.
    pub weight: f64,
    /// μ_j − x̄.
    pub centre: f64,
    /// σ_j².
    pub variance: f64,
}

/// What one EM run fits to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Problem<'a> {
    /// x − x̄.
    pub centred: &'a [f64],
    /// σ_min²: a variance at or below it makes the fit singular.
    pub floor: f64,
    /// The relative tolerance on L.
    pub tolerance: f64,
    /// At most this many E-steps.
    pub max_iterations: usize,
}

/// A converged (or capped) EM run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EmRun {
    /// The parameters L was computed at.
    pub params: Vec<Param>,
    /// L at `params`.
    pub log_likelihood: f64,
    /// E-steps run.
    pub iterations: usize,
    /// L after each E-step.
    pub trace: Vec<f64>,
}

/// EM from a hard partition of the values into K classes (`classes[i]` < k, none empty), under `model`;
/// `None` when the fit is singular.
pub(crate) fn em(
    problem: &Problem,
    classes: &[usize],
    k: usize,
    model: VarianceModel,
) -> Option<EmRun> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `em_avx2` only needs AVX2, which the processor has (checked just above).
        return unsafe { em_avx2(problem, classes, k, model) };
    }
    em_portable::<false>(problem, classes, k, model)
}

/// [`em_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn em_avx2(problem: &Problem, classes: &[usize], k: usize, model: VarianceModel) -> Option<EmRun> {
    em_portable::<true>(problem, classes, k, model)
}

/// The EM loop, inlined into each instruction-set variant; `AVX2` (true only inside [`em_avx2`]) takes the
/// M-step's sums from [`weighted_moments_avx2`], which the compiler does not vectorise by itself.
#[inline(always)]
fn em_portable<const AVX2: bool>(
    problem: &Problem,
    classes: &[usize],
    k: usize,
    model: VarianceModel,
) -> Option<EmRun> {
    let centred = problem.centred;
    let n = centred.len();
    let nf = n as f64;
    let mut params = first_m_step(centred, classes, k, model, problem.floor)?;
    // t[j * n + i]: first t_ij, then 2^(t_ij − max_i).
    let mut t = vec![0.0; k * n];
    let mut top = vec![0.0; n];
    let mut sum = vec![0.0; n];
    let mut ss = vec![0.0; k];
    // Row sums are in [1, K]: a block of them multiplies to at most K^block < 2^995.
    let block = ((690.0 / (k as f64).ln()).floor() as usize).clamp(1, 64);
    let mut trace = Vec::new();
    let mut previous = f64::NEG_INFINITY;
    loop {
        // ln σ_j² once per distinct variance: once for all components under E.
        let mut ln_variance = (f64::NAN, f64::NAN);
        for (row, p) in t.chunks_exact_mut(n).zip(&params) {
            if p.variance.to_bits() != ln_variance.0.to_bits() {
                ln_variance = (p.variance, p.variance.ln());
            }
            let a = LOG2_E * (p.weight.ln() - 0.5 * ln_variance.1);
            let h = LOG2_E * 0.5 / p.variance;
            for (ti, &c) in row.iter_mut().zip(centred) {
                let d = c - p.centre;
                *ti = a - d * d * h;
            }
        }
        e_step(&mut t, &mut top, &mut sum);
        let log_likelihood = LN_2 * lanes_sum(&top)
            + sum
                .chunks(block)
                .map(|chunk| chunk.iter().product::<f64>().ln())
                .sum::<f64>()
            - 0.5 * LN_2PI * nf;
        if !log_likelihood.is_finite() {
            return None;
        }
        trace.push(log_likelihood);
        if (log_likelihood - previous).abs() <= problem.tolerance * (1.0 + log_likelihood.abs())
            || trace.len() >= problem.max_iterations.max(1)
        {
            return Some(EmRun {
                params,
                log_likelihood,
                iterations: trace.len(),
                trace,
            });
        }
        previous = log_likelihood;
        for s in sum.iter_mut() {
            *s = 1.0 / *s;
        }
        for ((row, p), ss_j) in t.chunks_exact(n).zip(params.iter_mut()).zip(ss.iter_mut()) {
            let [nk, s1, s2] = moments::<AVX2>(row, &sum, centred, p.centre);
            if nk.is_nan() || nk <= 1e-8 * nf {
                return None;
            }
            let shift = s1 / nk;
            p.weight = nk / nf;
            p.centre += shift;
            *ss_j = (s2 - s1 * shift).max(0.0);
        }
        if !set_variances(&mut params, &ss, model, nf, problem.floor) {
            return None;
        }
    }
}

/// The E-step after the exponents: `t` (K rows of n) holds t_ij on entry and 2^(t_ij − max_i) on return,
/// `top` gets max_i and `sum` the row sums Σ_j 2^(t_ij − max_i), added in component order.
///
/// The term of a value's largest exponent is 2^0 = 1 exactly (t_ij − max_i is 0 there, and
/// [`exp2_nonpositive`] of ±0 is 1). At K = 2 and 3, where the search spends most of its terms, the loop
/// picks the other K − 1 exponents branch-free and computes only their exponentials (one in two at K = 2,
/// two in three at K = 3): the same values, the same sums, to the bit (tested). Above, every term.
#[inline(always)]
fn e_step(t: &mut [f64], top: &mut [f64], sum: &mut [f64]) {
    let n = top.len();
    match t.len() / n {
        2 => {
            let (r0, r1) = t.split_at_mut(n);
            let terms = r0.iter_mut().zip(r1.iter_mut()).zip(top.iter_mut());
            for (((t0, t1), m), s) in terms.zip(sum.iter_mut()) {
                let (a, b) = (*t0, *t1);
                let hi = a.max(b);
                let e = exp2_nonpositive(a.min(b) - hi);
                let first = a == hi;
                *t0 = if first { 1.0 } else { e };
                *t1 = if first { e } else { 1.0 };
                *m = hi;
                *s = *t0 + *t1;
            }
        }
        3 => {
            let (r0, rest) = t.split_at_mut(n);
            let (r1, r2) = rest.split_at_mut(n);
            let terms = r0.iter_mut().zip(r1.iter_mut()).zip(r2.iter_mut());
            for (((t0, t1), t2), (m, s)) in terms.zip(top.iter_mut().zip(sum.iter_mut())) {
                let (a, b, c) = (*t0, *t1, *t2);
                let hi = a.max(b).max(c);
                let (first, second) = (a == hi, b == hi);
                // The two exponents other than one equal to the maximum, in component order.
                let x = if first { b } else { a };
                let y = if first || second { c } else { b };
                let (ex, ey) = (exp2_nonpositive(x - hi), exp2_nonpositive(y - hi));
                *t0 = if first { 1.0 } else { ex };
                *t1 = if first {
                    ex
                } else if second {
                    1.0
                } else {
                    ey
                };
                *t2 = if first || second { ey } else { 1.0 };
                *m = hi;
                *s = (*t0 + *t1) + *t2;
            }
        }
        _ => {
            top.copy_from_slice(&t[..n]);
            for row in t.chunks_exact(n).skip(1) {
                for (m, &ti) in top.iter_mut().zip(row) {
                    *m = m.max(ti);
                }
            }
            sum.fill(0.0);
            for row in t.chunks_exact_mut(n) {
                for ((ti, &m), s) in row.iter_mut().zip(&*top).zip(sum.iter_mut()) {
                    let e = exp2_nonpositive(*ti - m);
                    *ti = e;
                    *s += e;
                }
            }
        }
    }
}

/// The M-step on the hard partition, two passes per class.
#[inline(always)]
fn first_m_step(
    centred: &[f64],
    classes: &[usize],
    k: usize,
    model: VarianceModel,
    floor: f64,
) -> Option<Vec<Param>> {
    let nf = centred.len() as f64;
    let mut counts = vec![0.0; k];
    let mut sums = vec![0.0; k];
    for (&class, &c) in classes.iter().zip(centred) {
        counts[class] += 1.0;
        sums[class] += c;
    }
    if counts.iter().any(|&c| c <= 1e-8 * nf) {
        return None;
    }
    let mut params: Vec<Param> = counts
        .iter()
        .zip(&sums)
        .map(|(&count, &sum)| Param {
            weight: count / nf,
            centre: sum / count,
            variance: 0.0,
        })
        .collect();
    let mut ss = vec![0.0; k];
    for (&class, &c) in classes.iter().zip(centred) {
        let d = c - params[class].centre;
        ss[class] += d * d;
    }
    set_variances(&mut params, &ss, model, nf, floor).then_some(params)
}

/// [`weighted_moments`], in AVX2 registers when `AVX2` (only ever true inside [`em_avx2`]).
#[inline(always)]
fn moments<const AVX2: bool>(e: &[f64], inverse: &[f64], centred: &[f64], centre: f64) -> [f64; 3] {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: `AVX2` is true only in the copy of the loop inlined into `em_avx2`, which runs only on a
        // processor with AVX2.
        return unsafe { weighted_moments_avx2(e, inverse, centred, centre) };
    }
    weighted_moments(e, inverse, centred, centre)
}

/// [`weighted_moments`] with each four-lane accumulator in one AVX2 register: the same lanes, the same
/// operations in the same order (no fused multiply-add), so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unused_unsafe)] // the intrinsics are safe inside this function from Rust 1.87; `unsafe` for 1.85
fn weighted_moments_avx2(e: &[f64], inverse: &[f64], centred: &[f64], centre: f64) -> [f64; 3] {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setzero_pd,
        _mm256_storeu_pd, _mm256_sub_pd,
    };
    let quads = e.len().min(inverse.len()).min(centred.len()) / 4;
    // SAFETY: every load reads four values at 4q..4q + 4 with q < quads, inside all three slices.
    let (s0, s1, s2) = unsafe {
        let mu = _mm256_set1_pd(centre);
        let (mut s0, mut s1, mut s2) = (
            _mm256_setzero_pd(),
            _mm256_setzero_pd(),
            _mm256_setzero_pd(),
        );
        for q in 0..quads {
            let a = _mm256_mul_pd(
                _mm256_loadu_pd(e.as_ptr().add(4 * q)),
                _mm256_loadu_pd(inverse.as_ptr().add(4 * q)),
            );
            let d = _mm256_sub_pd(_mm256_loadu_pd(centred.as_ptr().add(4 * q)), mu);
            let ad = _mm256_mul_pd(a, d);
            s0 = _mm256_add_pd(s0, a);
            s1 = _mm256_add_pd(s1, ad);
            s2 = _mm256_add_pd(s2, _mm256_mul_pd(ad, d));
        }
        let lanes = |v: __m256d| {
            let mut out = [0.0; 4];
            _mm256_storeu_pd(out.as_mut_ptr(), v);
            out
        };
        (lanes(s0), lanes(s1), lanes(s2))
    };
    finish_moments((s0, s1, s2), 4 * quads, e, inverse, centred, centre)
}

/// [Σ α_i, Σ α_i d_i, Σ α_i d_i²] with α_i = e_i · inverse_i and d_i = x_i − centre, in four lanes.
#[inline(always)]
fn weighted_moments(e: &[f64], inverse: &[f64], centred: &[f64], centre: f64) -> [f64; 3] {
    let (mut s0, mut s1, mut s2) = ([0.0; 4], [0.0; 4], [0.0; 4]);
    let quads = e
        .chunks_exact(4)
        .zip(inverse.chunks_exact(4))
        .zip(centred.chunks_exact(4));
    for ((e, inverse), c) in quads {
        for l in 0..4 {
            let a = e[l] * inverse[l];
            let d = c[l] - centre;
            s0[l] += a;
            s1[l] += a * d;
            s2[l] += a * d * d;
        }
    }
    finish_moments(
        (s0, s1, s2),
        e.len() - e.len() % 4,
        e,
        inverse,
        centred,
        centre,
    )
}

/// The values from `tail` on (fewer than four) added to lane 0, then each sum's lanes added pairwise.
#[inline(always)]
fn finish_moments(
    (mut s0, mut s1, mut s2): ([f64; 4], [f64; 4], [f64; 4]),
    tail: usize,
    e: &[f64],
    inverse: &[f64],
    centred: &[f64],
    centre: f64,
) -> [f64; 3] {
    for i in tail..e.len() {
        let a = e[i] * inverse[i];
        let d = centred[i] - centre;
        s0[0] += a;
        s1[0] += a * d;
        s2[0] += a * d * d;
    }
    let total = |s: [f64; 4]| (s[0] + s[1]) + (s[2] + s[3]);
    [total(s0), total(s1), total(s2)]
}

/// Σ x in four lanes.
#[inline(always)]
fn lanes_sum(x: &[f64]) -> f64 {
    let mut lanes = [0.0; 4];
    let mut quads = x.chunks_exact(4);
    for q in &mut quads {
        for l in 0..4 {
            lanes[l] += q[l];
        }
    }
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + quads.remainder().iter().sum::<f64>()
}

/// σ_j² from the weighted sums of squares (one pooled variance under E); false when one is at the floor.
#[inline(always)]
fn set_variances(
    params: &mut [Param],
    ss: &[f64],
    model: VarianceModel,
    nf: f64,
    floor: f64,
) -> bool {
    match model {
        VarianceModel::Variable => {
            for (p, &s) in params.iter_mut().zip(ss) {
                let variance = s / (p.weight * nf);
                if variance.is_nan() || variance <= floor {
                    return false;
                }
                p.variance = variance;
            }
        }
        VarianceModel::Equal => {
            let variance = ss.iter().sum::<f64>() / nf;
            if variance.is_nan() || variance <= floor {
                return false;
            }
            for p in params.iter_mut() {
                p.variance = variance;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::random::SplitMix64;

    /// Within 2.5 ulp of the correctly rounded 2^x over [−1000, 0], exact at the integers, 0 below −1020.
    #[test]
    fn exp2_is_accurate_to_the_last_bits() {
        let mut worst: f64 = 0.0;
        let mut x: f64 = -1000.0;
        while x <= 0.0 {
            let want = x.exp2();
            worst = worst.max(((exp2_nonpositive(x) - want) / want).abs());
            x += 0.000_123_4;
        }
        assert!(worst < 2.5 * f64::EPSILON, "{worst:e}");
        for i in 0..1020 {
            let x = -f64::from(i);
            assert_eq!(exp2_nonpositive(x), x.exp2(), "2^{x}");
        }
        assert_eq!(exp2_nonpositive(-1020.5), 0.0);
        assert_eq!(exp2_nonpositive(f64::NEG_INFINITY), 0.0);
    }

    /// The E-step with one exponential per term, as the loop computed it before [`e_step`] left out the
    /// largest term at K = 2 and 3: top, row sums and terms to the bit, ties and zeros of both signs included.
    #[test]
    fn leaving_out_the_largest_term_changes_no_bit() {
        let mut rng = SplitMix64::new(3);
        for case in 0..400 {
            let (n, k) = (1 + case % 13, 1 + case % 6);
            let mut t: Vec<f64> = (0..k * n)
                .map(|_| -40.0 * rng.uniform() * rng.uniform())
                .collect();
            // Ties between components, exact zeros of both signs, terms far below 2^-1020.
            for i in 0..n {
                match (case + i) % 5 {
                    0 => t[(k - 1) * n + i] = t[i],
                    1 => t[i] = -0.0,
                    2 => t[(case % k) * n + i] = -2000.0,
                    3 if k > 1 => {
                        t[i] = 0.0;
                        t[n + i] = -0.0;
                    }
                    _ => {}
                }
            }
            let mut want = t.clone();
            let mut want_top = want[..n].to_vec();
            for row in want.chunks_exact(n).skip(1) {
                for (m, &ti) in want_top.iter_mut().zip(row) {
                    *m = m.max(ti);
                }
            }
            let mut want_sum = vec![0.0; n];
            for row in want.chunks_exact_mut(n) {
                for ((ti, &m), s) in row.iter_mut().zip(&want_top).zip(want_sum.iter_mut()) {
                    *ti = exp2_nonpositive(*ti - m);
                    *s += *ti;
                }
            }
            let (mut top, mut sum) = (vec![9.0; n], vec![9.0; n]);
            e_step(&mut t, &mut top, &mut sum);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&t), bits(&want), "case {case}");
            assert_eq!(bits(&top), bits(&want_top), "case {case}");
            assert_eq!(bits(&sum), bits(&want_sum), "case {case}");
        }
    }

    /// The EM loop of a plain textbook transcription (natural logarithms, the C library's `exp`, two-pass
    /// M-step over stored responsibilities), for the agreement test below.
    fn textbook(
        problem: &Problem,
        classes: &[usize],
        k: usize,
        model: VarianceModel,
    ) -> Option<EmRun> {
        let x = problem.centred;
        let n = x.len();
        let mut z = vec![vec![0.0; n]; k];
        for (i, &c) in classes.iter().enumerate() {
            z[c][i] = 1.0;
        }
        let mut trace = Vec::new();
        loop {
            let mut params = Vec::new();
            let mut ss = Vec::new();
            for zj in &z {
                let nk: f64 = zj.iter().sum();
                if nk <= 1e-8 * n as f64 {
                    return None;
                }
                let centre = zj.iter().zip(x).map(|(a, c)| a * c).sum::<f64>() / nk;
                ss.push(
                    zj.iter()
                        .zip(x)
                        .map(|(a, c)| a * (c - centre).powi(2))
                        .sum::<f64>(),
                );
                params.push(Param {
                    weight: nk / n as f64,
                    centre,
                    variance: 0.0,
                });
            }
            if !set_variances(&mut params, &ss, model, n as f64, problem.floor) {
                return None;
            }
            let mut log_likelihood = 0.0;
            for i in 0..n {
                let terms: Vec<f64> = params
                    .iter()
                    .map(|p| {
                        p.weight.ln()
                            - 0.5 * (LN_2PI + p.variance.ln())
                            - (x[i] - p.centre).powi(2) / (2.0 * p.variance)
                    })
                    .collect();
                let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = terms.iter().map(|t| (t - max).exp()).sum();
                for (zj, t) in z.iter_mut().zip(&terms) {
                    zj[i] = (t - max).exp() / total;
                }
                log_likelihood += max + total.ln();
            }
            trace.push(log_likelihood);
            let converged = trace.len() > 1
                && (log_likelihood - trace[trace.len() - 2]).abs()
                    <= problem.tolerance * (1.0 + log_likelihood.abs());
            if converged || trace.len() >= problem.max_iterations {
                return Some(EmRun {
                    params,
                    log_likelihood,
                    iterations: trace.len(),
                    trace,
                });
            }
        }
    }

    fn sample(rng: &mut SplitMix64, n: usize, bistable: bool) -> Vec<f64> {
        let x: Vec<f64> = (0..n)
            .map(|_| {
                let slow = bistable && rng.uniform() < 0.3;
                1e6 * (0.02 * rng.normal() + if slow { 0.1 } else { 0.0 }).exp()
            })
            .collect();
        let mean = x.iter().sum::<f64>() / n as f64;
        x.iter().map(|v| v - mean).collect()
    }

    /// The problem `mixture.rs` poses for centred values: its variance floor, mclust's tolerance.
    fn mclust_problem(centred: &[f64]) -> Problem<'_> {
        let variance = centred.iter().map(|v| v * v).sum::<f64>() / centred.len() as f64;
        Problem {
            centred,
            floor: 1e-6 * variance,
            tolerance: 1e-5,
            max_iterations: 1000,
        }
    }

    /// The fast loop runs the same iterations as the textbook one: same number of E-steps, the same
    /// singular fits, parameters and L to 1e-9 relative.
    #[test]
    fn agrees_with_the_textbook_loop() {
        let mut rng = SplitMix64::new(11);
        let mut compared = 0;
        for case in 0..60 {
            let x = sample(&mut rng, [20, 40, 100][case % 3], case % 2 == 0);
            let problem = mclust_problem(&x);
            let variance = problem.floor * 1e6;
            for k in 2..=4 {
                let Some(classes) = crate::stats::mixture::quantile_partition(&x, k) else {
                    continue;
                };
                for model in [VarianceModel::Equal, VarianceModel::Variable] {
                    let fast = em(&problem, &classes, k, model);
                    let slow = textbook(&problem, &classes, k, model);
                    let (fast, slow) = match (fast, slow) {
                        (Some(fast), Some(slow)) => (fast, slow),
                        (None, None) => continue,
                        (f, s) => panic!("case {case} K = {k} {model:?}: {f:?} v {s:?}"),
                    };
                    assert_eq!(fast.iterations, slow.iterations, "case {case} K = {k}");
                    let close = |a: f64, b: f64, scale: f64| (a - b).abs() <= 1e-9 * scale;
                    assert!(close(
                        fast.log_likelihood,
                        slow.log_likelihood,
                        slow.log_likelihood.abs()
                    ));
                    let sd = variance.sqrt();
                    for (f, s) in fast.params.iter().zip(&slow.params) {
                        assert!(close(f.weight, s.weight, 1.0), "{f:?} {s:?}");
                        assert!(close(f.centre, s.centre, sd), "{f:?} {s:?}");
                        assert!(close(f.variance, s.variance, s.variance), "{f:?} {s:?}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 300, "{compared}");
    }

    /// The AVX2 copy and the portable one give the same bits.
    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        let mut rng = SplitMix64::new(5);
        for case in 0..20 {
            let x = sample(&mut rng, 37 + case, case % 2 == 0);
            let problem = mclust_problem(&x);
            for k in 2..=5 {
                let classes = crate::stats::mixture::quantile_partition(&x, k).expect("start");
                for model in [VarianceModel::Equal, VarianceModel::Variable] {
                    assert_eq!(
                        em(&problem, &classes, k, model),
                        em_portable::<false>(&problem, &classes, k, model)
                    );
                }
            }
        }
    }
}
