//! The report's glossary: the terms a Rust developer may not know, each said in plain words once, at the
//! end of each human report (table, Markdown, HTML), and only those that the report printed
//! (`docs/verdicts.md` §1). A term is found in what was rendered, so that the glossary follows the text
//! whatever wrote it (a column, a warning, the suite's figures under `--verbose`).
//!
//! Must not: define a word of the verdicts (faster, slower, unchanged, inconclusive: `docs/verdicts.md` §1
//! says them in the table's header and the headline), or list a term that the report did not print.

/// One term of the glossary.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Term {
    /// How the term reads in the glossary.
    pub name: &'static str,
    /// What it means, in one plain sentence.
    pub meaning: &'static str,
    /// The page of `docs/` that defines it, with its section.
    pub page: &'static str,
    /// Where the page is, from the repository's root: for the link.
    pub path: &'static str,
    /// Whether `text` (what a person reads, whitespace as single spaces) prints the term.
    printed: fn(&str) -> bool,
}

impl Term {
    /// The address of the page that defines the term, in the repository (`Cargo.toml`'s `repository`).
    pub(crate) fn url(&self) -> String {
        format!("{}/blob/main/{}", env!("CARGO_PKG_REPOSITORY"), self.path)
    }
}

/// Every term, in the order the glossary lists them.
pub(crate) const TERMS: [Term; 7] = [
    Term {
        name: "(0.97), (>= 0.99)",
        meaning: "after faster or slower: the highest confidence at which that verdict holds, in steps of \
                  0.01 from 0.51 to 0.99 (>= 0.99: at the top)",
        page: "docs/speedup-test.md §5",
        path: "docs/speedup-test.md",
        printed: level_after_verdict,
    },
    Term {
        name: "interval",
        meaning: "the range of speedups that the runs support at the confidence",
        page: "docs/statistics.md §5.2",
        path: "docs/statistics.md",
        printed: |t| has_word_ci(t, "interval") || has_word_ci(t, "intervals"),
    },
    Term {
        name: "HPT",
        meaning: "Hierarchical Performance Testing: the test of the whole suite, which ranks the benchmarks' \
                  changes; the HPT column is how each benchmark enters it",
        page: "docs/hpt.md",
        path: "docs/hpt.md",
        printed: |t| has_word(t, "HPT"),
    },
    Term {
        name: "r-speedup",
        meaning: "the largest speedup of the whole suite that holds at the confidence r (0.95-speedup, or \
                  0.95-slowdown when HEAD is slower)",
        page: "docs/hpt.md §3",
        path: "docs/hpt.md",
        printed: r_speedup,
    },
    Term {
        name: "Holm",
        meaning: "the correction that keeps the gate's risk at 1 − confidence over all the benchmarks, \
                  however many",
        page: "docs/usage.md §6",
        path: "docs/usage.md",
        printed: |t| has_word(t, "Holm"),
    },
    Term {
        name: "looks",
        meaning: "the points at which a comparison checks whether each benchmark is decided, and stops \
                  running those that are",
        page: "docs/racing.md §2",
        path: "docs/racing.md",
        printed: counted_looks,
    },
    Term {
        name: "layouts",
        meaning: "copies of each bench executable linked with its code in another order, so that a change of \
                  code placement is measured, not mistaken for the change",
        page: "docs/usage.md §1",
        path: "docs/usage.md",
        printed: |t| has_word_ci(t, "layout") || has_word_ci(t, "layouts"),
    },
];

/// The terms that `text` (a report as a person reads it: no colour codes, tags or entities) prints, in
/// the glossary's order.
pub(crate) fn printed(text: &str) -> Vec<&'static Term> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    TERMS.iter().filter(|t| (t.printed)(&text)).collect()
}

/// `text` without its ANSI colour codes (`ESC [ ... m`): what a terminal shows.
pub(crate) fn without_colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The words of `text`: runs of letters, digits and `_`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

fn has_word(text: &str, word: &str) -> bool {
    words(text).any(|w| w == word)
}

fn has_word_ci(text: &str, word: &str) -> bool {
    words(text).any(|w| w.eq_ignore_ascii_case(word))
}

/// "faster (0.97)", "slower (>= 0.99)": a level in parentheses after a verdict.
fn level_after_verdict(text: &str) -> bool {
    ["faster (", "slower ("].iter().any(|verdict| {
        text.match_indices(verdict).any(|(at, m)| {
            let rest = &text[at + m.len()..];
            rest.starts_with(">= ") || rest.starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

/// "r-speedup", or a level before "-speedup" or "-slowdown" ("0.95-speedup 1.12x").
fn r_speedup(text: &str) -> bool {
    text.contains("r-speedup")
        || ["-speedup", "-slowdown"].iter().any(|suffix| {
            text.match_indices(suffix)
                .any(|(at, _)| text[..at].ends_with(|c: char| c.is_ascii_digit()))
        })
}

/// "3 looks": the looks counted (the verb "looks" is not the term).
fn counted_looks(text: &str) -> bool {
    text.match_indices(" looks").any(|(at, m)| {
        let after = text[at + m.len()..].chars().next();
        text[..at].ends_with(|c: char| c.is_ascii_digit())
            && !after.is_some_and(|c| c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&'static str> {
        printed(text).into_iter().map(|t| t.name).collect()
    }

    #[test]
    fn each_term_is_found_where_it_is_printed_and_only_there() {
        assert_eq!(names("render  faster (>= 0.99)"), ["(0.97), (>= 0.99)"]);
        assert_eq!(names("slower (0.97)"), ["(0.97), (>= 0.99)"]);
        // A level of HPT after "faster overall" is not a verdict's level.
        assert!(names("faster overall (HPT confidence 0.996)") == ["HPT"]);
        assert!(names("leans faster (confidence 0.750)").is_empty());
        assert_eq!(names("Interval vs 1x"), ["interval"]);
        assert_eq!(names("0.95-slowdown 1.15x"), ["r-speedup"]);
        assert_eq!(names("no r-speedup"), ["r-speedup"]);
        assert_eq!(names("Holm-adjusted 1.2e-3"), ["Holm"]);
        assert_eq!(names("up to 3 looks, each"), ["looks"]);
        assert!(names("it looks odd; look at the distributions").is_empty());
        assert_eq!(names("code layouts (`--layouts`)"), ["layouts"]);
        // Parts of other words are not the term.
        assert!(names("HPTs intervalle Holmes layouted 3 looksee").is_empty());
    }

    #[test]
    fn every_term_links_to_a_page_of_the_repository_that_exists() {
        for term in TERMS {
            assert!(term.page.starts_with(term.path), "{term:?}");
            let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(term.path);
            assert!(file.is_file(), "{}", term.path);
            assert_eq!(
                term.url(),
                format!(
                    "https://github.com/cargo-speedup/cargo-speedup/blob/main/{}",
                    term.path
                )
            );
            assert!(!term.meaning.ends_with('.'), "{term:?}");
        }
    }
}
