//! [`crate::protocol::Analysis`] -> bytes: one [`Render`] implementation per output format.

pub mod speeduptest;

use std::io::{self, Write};

use crate::protocol::Analysis;

/// How a report may look on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colours.
    pub color: bool,
    /// Terminal width in columns, when known.
    pub width: Option<u16>,
}

/// One output format.
pub trait Render {
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()>;
}
