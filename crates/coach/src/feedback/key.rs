//! The key comment ids are signed with: given in the environment (the same
//! for every replica behind one address), or made once and kept in the data
//! directory (`feedback.key`, 32 random bytes, readable by its owner only),
//! so ids outlive a restart. Never logged, never shown.

use std::{
    fs,
    io::{self, Write},
    path::Path,
};

use base64::{
    engine::general_purpose::{STANDARD, URL_SAFE},
    Engine,
};
use rand::RngCore;

/// The file in the data directory.
pub const FILE: &str = "feedback.key";
/// The fewest bytes a key may have (HMAC-SHA256's own size).
pub const MIN_BYTES: usize = 32;
/// The most bytes a key file is read for.
const MAX_BYTES: usize = 1024;

/// A key for [`super::Signer`].
#[derive(Clone)]
pub struct FeedbackKey(Vec<u8>);

impl std::fmt::Debug for FeedbackKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FeedbackKey([redacted])")
    }
}

/// Why a key could not be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("is not base64 (standard or URL-safe) of at least {MIN_BYTES} bytes")]
    Malformed,
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("{path}: holds {len} bytes, not {MIN_BYTES} to {MAX_BYTES}")]
    FileSize { path: String, len: usize },
}

impl FeedbackKey {
    pub(super) fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// 32 bytes from the operating system's generator (via `rand`'s
    /// thread generator, which it seeds).
    pub fn random() -> Self {
        let mut bytes = vec![0; MIN_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        Self(bytes)
    }

    /// A key written as base64 (`JAY_FEEDBACK_KEY`; `openssl rand -base64 32`).
    pub fn from_base64(text: &str) -> Result<Self, KeyError> {
        let text = text.trim();
        let bytes = STANDARD
            .decode(text)
            .or_else(|_| URL_SAFE.decode(text))
            .map_err(|_| KeyError::Malformed)?;
        if bytes.len() < MIN_BYTES {
            return Err(KeyError::Malformed);
        }
        Ok(Self(bytes))
    }

    /// The key in `dir`'s [`FILE`], made there first if there is none. Two
    /// servers starting at once on one directory end with the same key:
    /// the file appears whole or not at all, and the later one reads the
    /// earlier one's.
    pub fn in_dir(dir: &Path) -> Result<Self, KeyError> {
        let path = dir.join(FILE);
        let failed = |source| KeyError::File {
            path: path.display().to_string(),
            source,
        };
        match fs::read(&path) {
            Ok(bytes) => return Self::checked(bytes, &path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(failed(e)),
        }
        fs::create_dir_all(dir).map_err(failed)?;
        let key = Self::random();
        let mut file = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
        restrict(file.as_file()).map_err(failed)?;
        file.write_all(&key.0).map_err(failed)?;
        file.as_file().sync_all().map_err(failed)?;
        match file.persist_noclobber(&path) {
            Ok(_) => Ok(key),
            // Another server made it first: theirs is the key.
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                Self::checked(fs::read(&path).map_err(failed)?, &path)
            }
            Err(e) => Err(failed(e.error)),
        }
    }

    fn checked(bytes: Vec<u8>, path: &Path) -> Result<Self, KeyError> {
        if (MIN_BYTES..=MAX_BYTES).contains(&bytes.len()) {
            Ok(Self(bytes))
        } else {
            Err(KeyError::FileSize {
                path: path.display().to_string(),
                len: bytes.len(),
            })
        }
    }
}

/// Readable and writable by its owner only.
#[cfg(unix)]
fn restrict(file: &fs::File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o600))
}

#[cfg(not(unix))]
fn restrict(_: &fs::File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let first = FeedbackKey::in_dir(dir.path()).expect("made");
        let again = FeedbackKey::in_dir(dir.path()).expect("read");
        assert_eq!(first.bytes(), again.bytes());
        assert_eq!(first.bytes().len(), MIN_BYTES);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(FILE))
                .expect("a file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_short_or_malformed_key_is_refused() {
        assert!(FeedbackKey::from_base64("c2hvcnQ=").is_err(), "5 bytes");
        assert!(FeedbackKey::from_base64("not base64!").is_err());
        let long = STANDARD.encode([7u8; 32]);
        assert!(FeedbackKey::from_base64(&long).is_ok());
        let dir = tempfile::tempdir().expect("a temporary directory");
        fs::write(dir.path().join(FILE), b"short").expect("written");
        assert!(matches!(
            FeedbackKey::in_dir(dir.path()),
            Err(KeyError::FileSize { len: 5, .. })
        ));
    }
}
