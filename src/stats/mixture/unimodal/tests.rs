//! Tests of `unimodal.rs`: R's optimisers on the same likelihood written out (`fixtures/r/unimodal.R` →
//! `fixtures/oracle/unimodal.json`), the density against R, and the closed forms of the family.

use super::*;
use crate::testutil::oracle::{assert_rel, load, number, numbers};

#[test]
fn ln_gamma_matches_known_values() {
    // Γ(1) = Γ(2) = 1, Γ(3/2) = √π/2, Γ(1/2) = √π.
    let pi_ln = std::f64::consts::PI.ln();
    for (z, want) in [
        (1.0, 0.0),
        (2.0, 0.0),
        (1.5, 0.5 * pi_ln - 2f64.ln()),
        (0.5, 0.5 * pi_ln),
    ] {
        assert!((ln_gamma(z) - want).abs() < 1e-12, "{z}: {}", ln_gamma(z));
    }
}

#[test]
fn the_grid_of_shapes_is_r_s() {
    assert_eq!(numbers(&load("unimodal")["shapes"]), SHAPES);
}

/// The fit reaches the largest likelihood R's optimisers find over the same shapes (to 10⁻⁶ of n, which
/// is far below the BIC's scale), with the same shape and parameters.
#[test]
fn the_fit_matches_r_s_optimisers() {
    for case in load("unimodal")["fits"].as_array().expect("fits") {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let fit = fit_unimodal(&x).expect("fit");
        let want = &case["best"];
        let n = x.len() as f64;
        let l = number(&want["loglik"]);
        // At least R's, to 10⁻⁶ per value. R's optimisers may stop short where the likelihood has a kink in
        // μ (p = 1: exponential_50, 0.0044 below ours, whose L is checked below as Σ ln f), so ours may
        // exceed theirs by up to 10⁻⁴ per value.
        let excess = fit.log_likelihood - l;
        assert!(
            excess > -1e-6 * n && excess < 1e-4 * n,
            "{name}: L {} v {l}",
            fit.log_likelihood
        );
        assert_eq!(fit.shape, number(&want["shape"]), "{name}: p");
        assert!(
            (fit.bic() - number(&want["bic"]) - 2.0 * excess).abs() < 1e-9 * n,
            "{name}: BIC"
        );
        let scale = x.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            - x.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(
            (fit.location - number(&want["location"])).abs() < 1e-3 * scale,
            "{name}: μ"
        );
        // A scale of 0 (μ at an end of the sample, a half distribution) is found by R as a scale that is
        // nothing next to the range: compared on the scale of the range.
        for (what, got, field) in [
            ("α_L", fit.left_scale, "left_scale"),
            ("α_R", fit.right_scale, "right_scale"),
        ] {
            let want = number(&want[field]);
            assert!(
                (got - want).abs() < 1e-2 * want.max(1e-2 * scale),
                "{name}: {what} {got} v {want}"
            );
        }
        // The fitted density gives the fit's L.
        let direct: f64 = x.iter().map(|&v| fit.pdf(v).ln()).sum();
        assert!(
            (direct - fit.log_likelihood).abs() < 1e-9 * n,
            "{name}: Σ ln f {direct}"
        );
    }
}

/// The density at fixed parameters, and that it integrates to 1, as R's `integrate` finds.
#[test]
fn the_density_matches_r() {
    for case in load("unimodal")["density"].as_array().expect("density") {
        let d = Unimodal {
            location: number(&case["location"]),
            left_scale: number(&case["left_scale"]),
            right_scale: number(&case["right_scale"]),
            shape: number(&case["shape"]),
            log_likelihood: 0.0,
            n: 1,
        };
        for (t, want) in numbers(&case["at"])
            .into_iter()
            .zip(numbers(&case["density"]))
        {
            assert_rel("density", &format!("f({t})"), d.pdf(t), want, 1e-12);
        }
        assert!((number(&case["integral"]) - 1.0).abs() < 1e-9);
    }
}

/// p = 2 with equal scales is the normal: on a sample whose maximum-likelihood fit is p = 2 and symmetric,
/// the likelihood is at least the normal MLE's (the family nests it).
#[test]
fn the_family_nests_the_normal() {
    let x: Vec<f64> = (0..60)
        .map(|i| 5.0 + crate::stats::normal::quantile((f64::from(i) + 0.5) / 60.0))
        .collect();
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let variance = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let normal = -0.5 * n * ((2.0 * std::f64::consts::PI * variance).ln() + 1.0);
    let fit = fit_unimodal(&x).expect("fit");
    assert!(
        fit.log_likelihood >= normal - 1e-9,
        "{} v {normal}",
        fit.log_likelihood
    );
    assert!((fit.location - 5.0).abs() < 1e-3, "{}", fit.location);
}

#[test]
fn no_fit_on_constant_short_or_non_finite_data() {
    assert_eq!(fit_unimodal(&[1.0, 1.0, 1.0]), Err(StatsError::Constant));
    assert!(matches!(
        fit_unimodal(&[1.0, 2.0]),
        Err(StatsError::TooFew { .. })
    ));
    assert_eq!(
        fit_unimodal(&[1.0, f64::NAN, 2.0]),
        Err(StatsError::NonFinite)
    );
}
