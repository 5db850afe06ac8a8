//! Tests of `mixture.rs`: mclust 6.0 oracles (`fixtures/r/mixture.R` → `fixtures/oracle/mixture.json`), the
//! App. A fit of paper 001 (`docs/mixtures.md` §7), and the EM invariants as properties.

use super::*;
use crate::testutil::oracle::{assert_rel, load, number, numbers};
use proptest::prelude::*;

fn cases() -> Vec<serde_json::Value> {
    load("mixture")["cases"].as_array().expect("cases").to_vec()
}

fn opt(v: &serde_json::Value) -> Option<f64> {
    (!v.is_null()).then(|| number(v))
}

#[test]
fn quantile_partition_matches_mclust_qclass() {
    for case in cases() {
        let x = numbers(&case["x"]);
        for q in case["qclass"].as_array().expect("qclass") {
            let k = q["k"].as_u64().expect("k") as usize;
            let want: Vec<usize> = numbers(&q["class"])
                .iter()
                .map(|c| *c as usize - 1)
                .collect();
            assert_eq!(
                quantile_partition(&x, k),
                Some(want),
                "{} K = {k}",
                case["name"]
            );
        }
    }
}

/// Fits mclust accepts whose smallest σ is below this module's floor 10⁻³·s (s = 0.0864 for bimodal_20,
/// floor 8.6e-5): R `me(x, "V", z = unmap(qclass(x, G)))` gives min σ = 3.5e-5 (G = 7) and 7.5e-5 (G = 8),
/// spikes on two near-equal values. They are singular here by design (`docs/mixtures.md` §3).
const BELOW_FLOOR: [(&str, &str, usize); 2] =
    [("bimodal_20", "bic_v", 7), ("bimodal_20", "bic_v", 8)];

/// mclust's BIC table: every (K, model) mclust fits, this module fits to the same BIC (to 1e-3 relative:
/// both stop at a relative tolerance of 1e-5), and mclust's singular fits (NA) are singular here too.
#[test]
fn bic_table_matches_mclust() {
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let selection = select(&x, &FitOptions::default()).expect("fit");
        for (slot, column) in ["bic_e", "bic_v"].into_iter().enumerate() {
            for (k, want) in case[column].as_array().expect("bic").iter().enumerate() {
                let got = selection.bic.get(k).and_then(|row| row[slot]);
                let what = format!("{column} K = {}", k + 1);
                match (got, opt(want)) {
                    (Some(g), Some(w)) => assert_rel(name, &what, g, w, 1e-3),
                    (None, None) => {}
                    (None, Some(_)) if BELOW_FLOOR.contains(&(name, column, k + 1)) => {}
                    (g, w) => panic!("{name}: {what}: got {g:?}, mclust {w:?}"),
                }
            }
        }
    }
}

/// mclust's chosen model, its K and its parameters (to 1e-3: mclust's L is one step from its parameters).
#[test]
fn chosen_model_matches_mclust() {
    let options = FitOptions::default();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let best = select(&x, &options).expect("fit").best;
        let want = &case["best"];
        let k = want["k"].as_u64().expect("k") as usize;
        assert_eq!(best.components(), k, "{name}: K");
        if k > 1 {
            assert_eq!(best.model.as_str(), want["model"], "{name}: model");
        }
        assert_rel(name, "BIC", best.bic, number(&want["bic"]), 1e-3);
        let scale = x.iter().map(|v| v.abs()).fold(0.0, f64::max);
        for (j, c) in best.mixture.components.iter().enumerate() {
            let w = |f: &str| numbers(&want[f])[j];
            assert!((c.weight - w("weight")).abs() < 1e-3, "{name}: π_{j}");
            assert!((c.mean - w("mean")).abs() < 1e-3 * scale, "{name}: μ_{j}");
            assert_rel(name, &format!("σ_{j}"), c.sd, w("sd"), 2e-2);
        }
    }
}

/// Paper 001 App. A (`docs/mixtures.md` §7.1): Mclust(x) chooses V with K = 5, BIC −74.96174.
#[test]
fn app_a_fit_is_v_with_five_components() {
    let x = numbers(&cases()[0]["x"]);
    let selection = select(&x, &FitOptions::default()).expect("fit");
    let best = &selection.best;
    assert_eq!(
        (best.model, best.components()),
        (VarianceModel::Variable, 5)
    );
    assert!((best.bic - -74.96174).abs() < 1e-3, "BIC {}", best.bic);
    assert!((best.log_likelihood - -13.44296).abs() < 1e-3);
    // E,1 = V,1: 2L − 2 ln 31 with L = −35.17187661 (the normal MLE).
    assert!((selection.bic[0][0].unwrap() - -77.21172762).abs() < 1e-7);
}

fn app_a_mixture() -> Mixture {
    let fixed = &load("mixture")["fixed"];
    let (w, m, s) = (
        numbers(&fixed["weight"]),
        numbers(&fixed["mean"]),
        numbers(&fixed["sd"]),
    );
    Mixture::from_columns(&w, &m, &s)
}

/// Fixed-parameter checks of `docs/mixtures.md` §7.1 at mclust's full-precision App. A parameters.
#[test]
fn fixed_parameter_checks_of_app_a() {
    let fixed = &load("mixture")["fixed"];
    let mixture = app_a_mixture();
    let x = numbers(&cases()[0]["x"]);
    for ((t, d), f) in numbers(&fixed["at"])
        .into_iter()
        .zip(numbers(&fixed["density"]))
        .zip(numbers(&fixed["cdf"]))
    {
        assert_rel("app_a", &format!("pdf({t})"), mixture.pdf(t), d, 1e-12);
        assert_rel("app_a", &format!("cdf({t})"), mixture.cdf(t), f, 1e-12);
    }
    assert_rel(
        "app_a",
        "L",
        mixture.log_likelihood(&x),
        number(&fixed["loglik"]),
        1e-12,
    );
    // docs/mixtures.md §7.1: L = −13.44282, BIC = −74.96147, mean x̄, variance 0.566248, KS_X = 0.09233,
    // F(93.5) = 0.433454, F(94) = 0.698209, q0.33 = 93.38870, q0.5 = 93.57553, q0.9 = 94.71826.
    assert!((mixture.log_likelihood(&x) - -13.44282).abs() < 1e-5);
    assert!((2.0 * mixture.log_likelihood(&x) - 14.0 * 31f64.ln() - -74.96147).abs() < 1e-5);
    assert!((mixture.mean() - 93.673226).abs() < 1e-6);
    assert!((mixture.variance() - 0.566248).abs() < 1e-6);
    assert!((mixture.ks_distance(&x) - 0.09233).abs() < 1e-5);
    assert!((mixture.cdf(93.5) - 0.433454).abs() < 1e-6);
    assert!((mixture.cdf(94.0) - 0.698209).abs() < 1e-6);
    for (p, q) in [(0.33, 93.38870), (0.5, 93.57553), (0.9, 94.71826)] {
        assert!((mixture.quantile(p) - q).abs() < 1e-5, "q{p}");
    }
}

#[test]
fn no_fit_on_constant_short_or_non_finite_data() {
    let o = FitOptions::default();
    assert_eq!(select(&[1.0, 1.0, 1.0, 1.0], &o), Err(StatsError::Constant));
    assert!(matches!(
        select(&[1.0, 2.0], &o),
        Err(StatsError::TooFew { needed: 3, .. })
    ));
    assert_eq!(
        select(&[1.0, f64::NAN, 2.0], &o),
        Err(StatsError::NonFinite)
    );
    // Two distinct values: K is tried up to 2 only.
    let two = select(&[1.0, 1.0, 1.0, 2.0, 2.0], &o).expect("fit");
    assert_eq!(two.bic.len(), 2);
    assert_eq!(fit(&[1.0, 1.0, 2.0], 3, VarianceModel::Equal, &o), Ok(None));
}

/// A bimodal sample with well separated clusters: two components at the cluster means.
#[test]
fn separated_clusters_give_two_components() {
    let x: Vec<f64> = (0..14)
        .map(|i| 1.02 + 0.001 * (i % 5) as f64)
        .chain((0..6).map(|i| 1.31 + 0.001 * (i % 3) as f64))
        .collect();
    let best = select(&x, &FitOptions::default()).expect("fit").best;
    assert_eq!(best.components(), 2);
    let c = &best.mixture.components;
    assert!((c[0].weight - 0.7).abs() < 1e-9 && (c[1].weight - 0.3).abs() < 1e-9);
    assert!((c[0].mean - 1.0218571428571428).abs() < 1e-9);
}

fn sample() -> impl Strategy<Value = Vec<f64>> {
    (
        prop::collection::vec(0.0f64..1.0, 3..40),
        1e-6f64..1e3,
        prop::collection::vec(-5.0f64..5.0, 1..4),
    )
        .prop_map(|(u, scale, shifts)| {
            u.iter()
                .enumerate()
                .map(|(i, v)| scale * (100.0 + v + shifts[i % shifts.len()]))
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// docs/mixtures.md §2: after an M-step Σ π_k μ_k = x̄ and Σ π_k(σ_k² + μ_k²) − x̄² = the 1/n variance.
    #[test]
    fn m_step_keeps_the_mean_and_variance(x in sample(), k in 2usize..6) {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let variance = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        for model in [VarianceModel::Equal, VarianceModel::Variable] {
            if let Ok(Some(f)) = fit(&x, k, model, &FitOptions::default()) {
                let w: f64 = f.mixture.components.iter().map(|c| c.weight).sum();
                prop_assert!((w - 1.0).abs() < 1e-12);
                prop_assert!((f.mixture.mean() - mean).abs() <= 1e-12 * mean.abs());
                prop_assert!((f.mixture.variance() - variance).abs() <= 1e-9 * variance);
            }
        }
    }

    /// EM never lowers the likelihood (up to rounding).
    #[test]
    fn likelihood_never_decreases(x in sample(), k in 2usize..6) {
        let data = Data::new(&x);
        prop_assume!(data.is_ok());
        let data = data.unwrap();
        for model in [VarianceModel::Equal, VarianceModel::Variable] {
            if let Some(classes) = quantile_partition(&x, k)
                && let Some((_, trace)) = data.em(&classes, k, model, &FitOptions::default())
            {
                for w in trace.windows(2) {
                    prop_assert!(w[1] >= w[0] - 1e-9 * (1.0 + w[0].abs()), "{trace:?}");
                }
            }
        }
    }

    /// Every BIC is finite, the best is the largest, and restarts never lower the best likelihood.
    #[test]
    fn bic_is_finite_and_restarts_only_help(x in sample(), seed in any::<u64>()) {
        let plain = select(&x, &FitOptions::default());
        prop_assume!(plain.is_ok());
        let plain = plain.unwrap();
        let best = plain.bic.iter().flatten().flatten().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        prop_assert!(plain.bic.iter().flatten().flatten().all(|b| b.is_finite()));
        prop_assert_eq!(plain.best.bic, best);
        let restarted = select(&x, &FitOptions { restarts: 3, seed, ..FitOptions::default() }).unwrap();
        prop_assert!(restarted.best.bic >= plain.best.bic);
    }
}

#[test]
fn the_selection_from_a_sorted_copy_is_the_selection() {
    use crate::stats::sorted::{SortedVec, tests::awkward_samples};
    use std::borrow::Cow;
    let options = FitOptions {
        max_components: 4,
        ..FitOptions::default()
    };
    // Debug prints the shortest decimal that reads back as the same bits (and "-0.0"): equal texts are
    // equal bits.
    let text = |r: StatsResult<Selection>| format!("{r:?}");
    let mut fitted = 0;
    for x in awkward_samples()
        .into_iter()
        .filter(|x| x.iter().all(|v| v.abs() < 1e12))
    {
        // The plain computation: the data sorted on their own, stably, as before.
        let mut plain = x.clone();
        plain.sort_by(f64::total_cmp);
        let want = Data::with_sorted(&x, Cow::Owned(plain)).and_then(|d| select_from(d, &options));
        fitted += usize::from(want.is_ok());
        let sorted = SortedVec::of(&x);
        assert_eq!(
            text(select_sorted(&x, sorted.as_sorted(), &options)),
            text(want.clone()),
            "{x:?}"
        );
        assert_eq!(text(select(&x, &options)), text(want), "{x:?}");
    }
    assert!(fitted > 10, "{fitted}");
}

/// The samples of the unimodal reference's oracle (`fixtures/r/unimodal.R`: App. A, flat, skewed, normal,
/// a minority state, two equal states): the search with K up to n / 5 finds mclust's choice (K, model, BIC to
/// 10⁻³ relative), and its BIC gain over the reference is R's `Mclust` BIC minus R's reference BIC, to 0.05.
#[test]
fn mclust_s_gain_over_the_unimodal_reference() {
    for case in load("unimodal")["fits"].as_array().expect("fits") {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let options = FitOptions {
            max_components: (x.len() / 5).clamp(1, MAX_COMPONENTS),
            ..FitOptions::default()
        };
        let best = select(&x, &options).expect("fit").best;
        let want = &case["mclust"];
        let k = want["k"].as_u64().expect("k") as usize;
        assert_eq!(best.components(), k, "{name}: K");
        if k > 1 {
            assert_eq!(best.model.as_str(), want["model"], "{name}: model");
        }
        assert_rel(name, "BIC", best.bic, number(&want["bic"]), 1e-3);
        let reference = unimodal::fit_unimodal(&x).expect("reference");
        let gain = best.bic - reference.bic();
        assert!(
            (gain - number(&want["gain"])).abs() < 0.05,
            "{name}: gain {gain} v {}",
            want["gain"]
        );
    }
}
