//! Existing results on disk -> [`crate::model::Results`], one file per input format, detected from content.

pub mod speeduptest_config;
