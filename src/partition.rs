//! `--partition count:K/N` and `hash:K/N` (nextest's spelling): which benchmarks the K-th of N parts of a
//! suite runs, so that a CI matrix of N jobs measures the whole suite once (`docs/sharding.md`).
//!
//! The split must come out the same on every machine and for both revisions of a comparison, or two jobs
//! would run one benchmark and none another. It therefore depends on the benchmark names only, never on
//! the order a harness lists them in, the machine, the clock or a seed:
//!
//! - `count:K/N` sorts the names (byte order) and deals them round-robin: the i-th name (from 0) goes to
//!   part `i mod N + 1`. The parts' sizes differ by at most one; the split is over every name listed on
//!   either side, so adding a benchmark may move others to another part (the parts of one comparison
//!   still cover it exactly once).
//! - `hash:K/N` puts a name in part `FNV-1a-64(name) mod N + 1` (Fowler, Noll and Vo's 64-bit hash of its
//!   UTF-8 bytes): a benchmark stays in its part whatever is added or removed, at the price of less even
//!   parts.
//!
//! Pure: no I/O. Must not: depend on anything but the names and the spec.

use std::fmt;

/// How names are dealt to parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// Sorted names dealt round-robin.
    Count,
    /// FNV-1a-64 of the name, modulo N.
    Hash,
}

/// The K-th of N parts (K from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Partition {
    /// How names are dealt to the parts.
    pub scheme: Scheme,
    /// K, in 1..=total.
    pub index: u32,
    /// N, at least 1.
    pub total: u32,
}

impl Partition {
    /// Parses `count:K/N` or `hash:K/N`; the error says what is expected.
    pub(crate) fn parse(text: &str) -> Result<Partition, String> {
        let expected = "expected `count:K/N` or `hash:K/N` with 1 <= K <= N, e.g. `count:1/3`";
        let text = text.trim();
        let (scheme, rest) = match text.split_once(':') {
            Some(("count", rest)) => (Scheme::Count, rest),
            Some(("hash", rest)) => (Scheme::Hash, rest),
            _ => return Err(expected.to_string()),
        };
        let (k, n) = rest.split_once('/').ok_or_else(|| expected.to_string())?;
        let (Ok(index), Ok(total)) = (k.trim().parse::<u32>(), n.trim().parse::<u32>()) else {
            return Err(expected.to_string());
        };
        if index == 0 || total == 0 || index > total {
            return Err(expected.to_string());
        }
        Ok(Partition {
            scheme,
            index,
            total,
        })
    }

    /// The names of `all` that this part runs, sorted; `all` may hold duplicates and be in any order.
    pub(crate) fn select(&self, all: &[String]) -> Vec<String> {
        let mut names: Vec<&String> = all.iter().collect();
        names.sort();
        names.dedup();
        let part = self.index - 1;
        names
            .into_iter()
            .enumerate()
            .filter(|(i, name)| match self.scheme {
                Scheme::Count => (*i as u64 % u64::from(self.total)) as u32 == part,
                Scheme::Hash => (fnv1a64(name.as_bytes()) % u64::from(self.total)) as u32 == part,
            })
            .map(|(_, name)| name.clone())
            .collect()
    }

    /// The same split's other part `index`.
    pub(crate) fn with_index(self, index: u32) -> Partition {
        Partition { index, ..self }
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.scheme {
            Scheme::Count => "count",
            Scheme::Hash => "hash",
        };
        write!(f, "{scheme}:{}/{}", self.index, self.total)
    }
}

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        // Test vectors of the FNV reference (Noll, "FNV hash", test suite of fnv-5.0.3 / RFC draft
        // draft-eastlake-fnv): "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c, "foobar" -> 85944171f73967e8.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn spelling_is_nextests() {
        let p = Partition::parse("count:2/3").unwrap();
        assert_eq!((p.scheme, p.index, p.total), (Scheme::Count, 2, 3));
        assert_eq!(p.to_string(), "count:2/3");
        assert_eq!(
            Partition::parse("hash:1/1").unwrap().to_string(),
            "hash:1/1"
        );
        for bad in [
            "",
            "count",
            "count:",
            "count:0/3",
            "count:4/3",
            "count:1/0",
            "hash:a/2",
            "slice:1/2",
            "count:1",
            "count:-1/3",
        ] {
            assert!(Partition::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn count_deals_sorted_names_round_robin() {
        // Sorted: a, b, c, d, e, f, g -> parts 1, 2, 3, 1, 2, 3, 1.
        let all = names(&["g", "c", "a", "e", "b", "f", "d", "a"]);
        let part = |k| {
            Partition::parse(&format!("count:{k}/3"))
                .unwrap()
                .select(&all)
        };
        assert_eq!(part(1), ["a", "d", "g"]);
        assert_eq!(part(2), ["b", "e"]);
        assert_eq!(part(3), ["c", "f"]);
    }

    #[test]
    fn hash_puts_a_name_by_its_fnv1a64() {
        // fnv1a64("a") = 0xaf63dc4c8601ec8c = 12638187200555641996: 0 mod 2, 1 mod 3;
        // fnv1a64("foobar") = 0x85944171f73967e8 = 9625390261332436968: 0 mod 2, 0 mod 3.
        let all = names(&["a", "foobar"]);
        let part = |spec: &str| Partition::parse(spec).unwrap().select(&all);
        assert_eq!(part("hash:1/2"), ["a", "foobar"]);
        assert!(part("hash:2/2").is_empty());
        assert_eq!(part("hash:1/3"), ["foobar"]);
        assert_eq!(part("hash:2/3"), ["a"]);
        assert!(part("hash:3/3").is_empty());
    }

    #[test]
    fn the_parts_cover_every_name_once_whatever_the_order() {
        let all: Vec<String> = (0..50)
            .map(|i| format!("group/{}", (i * 37) % 50))
            .collect();
        let mut reversed = all.clone();
        reversed.reverse();
        for scheme in ["count", "hash"] {
            for total in 1..=7 {
                let mut seen = Vec::new();
                for k in 1..=total {
                    let p = Partition::parse(&format!("{scheme}:{k}/{total}")).unwrap();
                    let part = p.select(&all);
                    assert_eq!(part, p.select(&reversed), "{p} depends on the order");
                    if scheme == "count" {
                        let expected = 50 / total + u32::from(k <= 50 % total);
                        assert_eq!(part.len() as u32, expected, "{p}");
                    }
                    seen.extend(part);
                }
                seen.sort();
                let mut expected = all.clone();
                expected.sort();
                assert_eq!(seen, expected, "{scheme} over {total} parts");
            }
        }
    }
}
