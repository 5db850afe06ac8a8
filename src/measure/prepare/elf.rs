//! Whether two bench executables run the same code, even when their debug information differs.
//!
//! BASE and HEAD are built in worktrees at different paths, and a profile with debug information (base64's
//! `[profile.bench] debug = 2`, for one) records the compilation directory in the DWARF sections, and the
//! linker's build-id note hashes them: two builds of the same code then differ in bytes the program never
//! runs. What runs is what the loader maps: the contents of the `PT_LOAD` segments at their addresses. Two
//! ELF executables whose loadable segments are equal (notes masked out: the build-id; and the file header's
//! pointers to the section headers, which follow the debug sections and move with them) run the same
//! instructions from the same addresses with the same data, so nothing can differ between them; anything
//! else, or a file that is not 64-bit little-endian ELF, is compared byte for byte.
//!
//! Written here rather than taken from a crate: reading the program header table is about forty lines of the
//! ELF specification (System V ABI, "Program Header"), and an ELF crate would be a dependency for them.

/// `p_type` of a loadable segment.
const PT_LOAD: u32 = 1;
/// `p_type` of a note segment (the build-id lives in one).
const PT_NOTE: u32 = 4;
/// `e_shoff` in the ELF64 file header.
const SHOFF: std::ops::Range<usize> = 0x28..0x30;
/// `e_shentsize`, `e_shnum` and `e_shstrndx` in the ELF64 file header.
const SHENTSIZE_SHNUM_SHSTRNDX: std::ops::Range<usize> = 0x3a..0x40;

/// Whether `a` and `b` run the same code: equal loadable segments when both are ELF64 little-endian,
/// else equal bytes.
pub(super) fn same_code(a: &[u8], b: &[u8]) -> bool {
    match (loadable(a), loadable(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// One program header's fields that matter here.
#[derive(Debug, Clone, Copy)]
struct Segment {
    kind: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
    memsz: u64,
}

/// The loadable segments of an ELF64 little-endian file: address, size in memory, and contents with the note
/// segments' bytes zeroed; `None` when the file is not such an ELF or its headers point outside it.
fn loadable(bytes: &[u8]) -> Option<Vec<(u64, u64, Vec<u8>)>> {
    if bytes.get(..6)? != [0x7f, b'E', b'L', b'F', 2, 1] {
        return None;
    }
    let phoff = u64_at(bytes, 0x20)?;
    let phentsize = u64::from(u16_at(bytes, 0x36)?);
    let phnum = u64::from(u16_at(bytes, 0x38)?);
    let segments: Vec<Segment> = (0..phnum)
        .map(|i| {
            let at = usize::try_from(phoff.checked_add(i.checked_mul(phentsize)?)?).ok()?;
            Some(Segment {
                kind: u32_at(bytes, at)?,
                offset: u64_at(bytes, at + 8)?,
                vaddr: u64_at(bytes, at + 16)?,
                filesz: u64_at(bytes, at + 32)?,
                memsz: u64_at(bytes, at + 40)?,
            })
        })
        .collect::<Option<_>>()?;
    let mut masked = bytes.to_vec();
    for note in segments.iter().filter(|s| s.kind == PT_NOTE) {
        masked.get_mut(range(note)?)?.fill(0);
    }
    // The file header is loaded with the first segment, and says where the section headers are and how many:
    // they follow the debug sections, so their offset moves with them; nothing at run time reads either.
    for field in [SHOFF, SHENTSIZE_SHNUM_SHSTRNDX] {
        masked.get_mut(field)?.fill(0);
    }
    segments
        .iter()
        .filter(|s| s.kind == PT_LOAD)
        .map(|s| Some((s.vaddr, s.memsz, masked.get(range(s)?)?.to_vec())))
        .collect()
}

fn range(s: &Segment) -> Option<std::ops::Range<usize>> {
    let start = usize::try_from(s.offset).ok()?;
    Some(start..start.checked_add(usize::try_from(s.filesz).ok()?)?)
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF64 little-endian file: header, three program headers (a loadable segment of code, a note,
    /// a second loadable segment), their contents, and then bytes outside any segment (as debug sections are).
    fn elf(code: &[u8], note: &[u8], data: &[u8], unloaded: &[u8]) -> Vec<u8> {
        let phoff = 64u64;
        let contents = phoff + 3 * 56;
        let mut out = vec![0u8; contents as usize];
        out[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1]);
        out[0x20..0x28].copy_from_slice(&phoff.to_le_bytes());
        out[0x36..0x38].copy_from_slice(&56u16.to_le_bytes());
        out[0x38..0x3a].copy_from_slice(&3u16.to_le_bytes());
        let mut offset = contents;
        for (i, (kind, part, vaddr)) in [
            (PT_LOAD, code, 0x1000u64),
            (PT_NOTE, note, 0x2000),
            (PT_LOAD, data, 0x3000),
        ]
        .into_iter()
        .enumerate()
        {
            let at = (phoff + i as u64 * 56) as usize;
            out[at..at + 4].copy_from_slice(&kind.to_le_bytes());
            out[at + 8..at + 16].copy_from_slice(&offset.to_le_bytes());
            out[at + 16..at + 24].copy_from_slice(&vaddr.to_le_bytes());
            out[at + 32..at + 40].copy_from_slice(&(part.len() as u64).to_le_bytes());
            out[at + 40..at + 48].copy_from_slice(&(part.len() as u64).to_le_bytes());
            offset += part.len() as u64;
        }
        for part in [code, note, data, unloaded] {
            out.extend_from_slice(part);
        }
        out
    }

    #[test]
    fn debug_information_and_build_ids_do_not_make_code_differ() {
        let a = elf(b"code", b"id-1", b"data", b"/work/base/src");
        let mut b = elf(b"code", b"id-2", b"data", b"/work/head/src");
        // Longer debug sections move the section headers.
        b[0x28..0x30].copy_from_slice(&4096u64.to_le_bytes());
        b[0x3c..0x3e].copy_from_slice(&7u16.to_le_bytes());
        assert_ne!(a, b);
        assert!(same_code(&a, &b));
    }

    #[test]
    fn different_code_or_data_differs() {
        let a = elf(b"code", b"id", b"data", b"");
        assert!(!same_code(&a, &elf(b"cOde", b"id", b"data", b"")));
        assert!(!same_code(&a, &elf(b"code", b"id", b"dat4", b"")));
    }

    #[test]
    fn other_files_are_compared_byte_for_byte() {
        assert!(same_code(b"MZ same", b"MZ same"));
        assert!(!same_code(b"MZ same", b"MZ diff"));
        // A truncated header is not ELF.
        assert!(!same_code(
            &[0x7f, b'E', b'L', b'F', 2, 1, 0],
            &[0x7f, b'E', b'L', b'F', 2, 1, 1]
        ));
    }
}
