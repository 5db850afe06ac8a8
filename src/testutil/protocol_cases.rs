//! The cases the Speedup-Test protocol's tests share: the §6.3 example of paper 000 and the R oracle of
//! `fixtures/oracle/protocol.json`.

use crate::testutil::oracle;
use serde_json::Value;

/// One case of `fixtures/oracle/protocol.json` (written by `fixtures/r/protocol.R`).
pub(crate) struct Case {
    pub name: String,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub json: Value,
}

impl Case {
    pub(crate) fn numbers(&self, key: &str) -> Vec<f64> {
        oracle::numbers(&self.json[key])
    }
    pub(crate) fn number(&self, key: &str) -> f64 {
        oracle::number(&self.json[key])
    }
    /// A direction string, or `None` for R's NA.
    pub(crate) fn direction(&self, key: &str) -> Option<crate::protocol::Direction> {
        match self.json[key].as_str() {
            Some("faster") => Some(crate::protocol::Direction::Faster),
            Some("slower") => Some(crate::protocol::Direction::Slower),
            _ => None,
        }
    }
    pub(crate) fn level(&self, key: &str) -> Option<f64> {
        self.json[key].as_f64()
    }
}

/// Every case of the protocol oracle, by name.
pub(crate) fn cases() -> Vec<Case> {
    let all = oracle::load("protocol");
    let object = all.as_object().expect("an object of cases");
    object
        .iter()
        .map(|(name, json)| Case {
            name: name.clone(),
            x: oracle::numbers(&json["x"]),
            y: oracle::numbers(&json["y"]),
            json: json.clone(),
        })
        .collect()
}

/// The §6.3 example of paper 000 (`docs/speedup-test.md` §10.2): (BASE, HEAD) of four benchmarks.
pub(crate) const PAPER: [(&[f64], &[f64]); 4] = [
    (
        &[2.02, 2.25, 2.30, 2.251, 2.01],
        &[1.02, 2.05, 2.30, 2.071, 1.05],
    ),
    (
        &[2.799, 2.046, 1.259, 1.877, 2.244],
        &[1.046, 0.259, 0.877, 1.244, 1.799],
    ),
    (
        &[
            6.512692, 5.547728, 4.171278, 5.748114, 6.188147, 4.860546, 6.393239, 5.862367,
            5.724749, 7.769651, 6.455157, 6.975127, 5.331494, 6.779595, 4.839683,
        ],
        &[
            4.556838, 5.491279, 5.708276, 5.204911, 4.454981, 5.059760, 5.440053, 4.780246,
            4.363734, 5.782297, 5.195786, 5.627607, 6.114562, 6.552509, 3.055505, 4.037513,
            5.445448, 3.665237, 6.965091, 4.396594,
        ],
    ),
    (
        &[7.308153, 6.891170, 6.102855, 6.472642],
        &[
            6.571750, 5.514734, 5.705132, 7.051386, 8.007863, 4.187613, 6.124584, 4.995708,
        ],
    ),
];
