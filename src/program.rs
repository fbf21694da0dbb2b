//! The running program's identity: a digest that changes whenever the
//! program's code does, for keeping what a run derived from its inputs only
//! while the code that derived it is the same (`render::datos::reuse`).
//! It is the SHA-256 of the linker's build ID (the ELF note holding the
//! linker's hash of the program), read from the file's first page, or of the
//! whole file where it has none.

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use sha2::Digest;
use tracing::warn;

/// This program's identity, read once a run; `None` when the program
/// cannot be read (the warning says so once).
pub fn this_program() -> Option<&'static [u8; 32]> {
    static DIGEST: OnceLock<Option<[u8; 32]>> = OnceLock::new();
    DIGEST
        .get_or_init(|| {
            program_identity()
                .inspect_err(|err| warn!(%err, "this program cannot be read; what depends on its identity is built again"))
                .ok()
        })
        .as_ref()
}

/// The SHA-256 of the running program's build ID (the hash of its contents
/// that the linker writes into an ELF note), or of its whole file where it
/// has none. The file is the one running even if it was replaced since
/// (`/proc/self/exe`); a build with debug information is hundreds of
/// megabytes, too many to read and hash whole at every run.
fn program_identity() -> std::io::Result<[u8; 32]> {
    use std::io::Read;
    let path = Path::new("/proc/self/exe");
    let mut file = fs::File::open(path).or_else(|_| fs::File::open(std::env::current_exe()?))?;
    let mut head = Vec::with_capacity(1 << 16);
    (&mut file).take(1 << 16).read_to_end(&mut head)?;
    let mut hash = sha2::Sha256::new();
    match elf_build_id(&head) {
        Some(id) => hash.update([b"build id".as_slice(), id].concat()),
        None => {
            hash.update(b"file");
            hash.update(&head);
            let mut chunk = vec![0; 1 << 20];
            loop {
                match file.read(&mut chunk)? {
                    0 => break,
                    n => hash.update(&chunk[..n]),
                }
            }
        }
    }
    Ok(hash.finalize().into())
}

/// The GNU build ID of a little-endian 64-bit ELF file, from the first
/// bytes of the file (`head`), where the linker puts its notes; `None` for
/// any other file, or when the note is not within `head`.
fn elf_build_id(head: &[u8]) -> Option<&[u8]> {
    const PT_NOTE: u32 = 4;
    const NT_GNU_BUILD_ID: u32 = 3;
    let bytes = |at: usize, n: usize| head.get(at..at.checked_add(n)?);
    let u16_at = |at| Some(u16::from_le_bytes(bytes(at, 2)?.try_into().ok()?));
    let u32_at = |at| Some(u32::from_le_bytes(bytes(at, 4)?.try_into().ok()?));
    let u64_at = |at| usize::try_from(u64::from_le_bytes(bytes(at, 8)?.try_into().ok()?)).ok();
    // ELF magic, 64-bit, little-endian.
    if bytes(0, 6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (table, entry, count) = (u64_at(0x20)?, usize::from(u16_at(0x36)?), u16_at(0x38)?);
    (0..usize::from(count)).find_map(|index| {
        let header = table.checked_add(index.checked_mul(entry)?)?;
        if u32_at(header)? != PT_NOTE {
            return None;
        }
        let (start, size) = (u64_at(header + 8)?, u64_at(header + 32)?);
        let mut at = start;
        // Each note: name size, description size, type, then the name and
        // the description, each padded to 4 bytes.
        while at.checked_add(12)? <= start.checked_add(size)? {
            let (name, desc, kind) = (
                u32_at(at)? as usize,
                u32_at(at + 4)? as usize,
                u32_at(at + 8)?,
            );
            let name_at = at + 12;
            let desc_at = name_at.checked_add(name.next_multiple_of(4))?;
            if kind == NT_GNU_BUILD_ID && bytes(name_at, name)? == b"GNU\0" && desc > 0 {
                return bytes(desc_at, desc);
            }
            at = desc_at.checked_add(desc.next_multiple_of(4))?;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-bit little-endian ELF head with one PT_NOTE segment holding
    /// `notes` (type, name, description).
    fn elf(notes: &[(u32, &[u8], &[u8])]) -> Vec<u8> {
        let mut note = Vec::new();
        for (kind, name, desc) in notes {
            note.extend((name.len() as u32).to_le_bytes());
            note.extend((desc.len() as u32).to_le_bytes());
            note.extend(kind.to_le_bytes());
            for part in [*name, *desc] {
                note.extend(part);
                note.resize(note.len().next_multiple_of(4), 0);
            }
        }
        let mut head = vec![0u8; 0x40];
        head[..6].copy_from_slice(b"\x7fELF\x02\x01");
        head[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes()); // program headers
        head[0x36..0x38].copy_from_slice(&56u16.to_le_bytes()); // each 56 bytes
        head[0x38..0x3a].copy_from_slice(&2u16.to_le_bytes()); // two of them
        let mut load = vec![0u8; 56];
        load[..4].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
        let mut notes_header = vec![0u8; 56];
        notes_header[..4].copy_from_slice(&4u32.to_le_bytes()); // PT_NOTE
        notes_header[8..16].copy_from_slice(&(0x40u64 + 112).to_le_bytes());
        notes_header[32..40].copy_from_slice(&(note.len() as u64).to_le_bytes());
        [head, load, notes_header, note].concat()
    }

    #[test]
    fn the_build_id_is_read_from_the_gnu_note_of_an_elf_file() {
        // 20 bytes, as the linker's SHA-1 gives: the file ends with it.
        let id: &[u8] =
            b"\x40\x5c\xae\x3a\xf1\x57\xfc\x02\x56\x56\x40\x5c\xae\x3a\xf1\x57\xfc\x02\x56\x56";
        // After another note (an ABI tag, type 1), as linkers lay them out.
        let file = elf(&[(1, b"GNU\0", &[0, 0, 0, 0]), (3, b"GNU\0", id)]);
        assert_eq!(elf_build_id(&file), Some(id));
        // Another owner's note of the same type, or no such note: none.
        assert_eq!(elf_build_id(&elf(&[(3, b"Go\0\0", id)])), None);
        assert_eq!(elf_build_id(&elf(&[(1, b"GNU\0", id)])), None);
        // Cut short, 32-bit, or not ELF at all: none, and no panic.
        for len in 0..file.len() {
            assert_eq!(elf_build_id(&file[..len]), None, "{len} bytes");
        }
        let mut class32 = file.clone();
        class32[4] = 1;
        assert_eq!(elf_build_id(&class32), None);
        assert_eq!(elf_build_id(b"#!/bin/sh\n"), None);
    }

    #[test]
    fn the_running_program_has_one_identity() {
        // Linked here with a build ID, which is read rather than the file
        // hashed whole.
        let head = fs::read("/proc/self/exe").expect("this program reads");
        assert!(elf_build_id(&head[..1 << 16]).is_some_and(|id| !id.is_empty()));
        let first = program_identity().expect("this program reads");
        assert_eq!(program_identity().expect("reads again"), first);
        assert_eq!(this_program(), Some(&first));
    }
}
