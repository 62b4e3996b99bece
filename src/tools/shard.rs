//! Splitting a run (datagen games, match game pairs) into shards that machines play apart
//! and that merge back into exactly the whole run.

/// Reads `I/N`: shard I (0-based) of N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard: expected I/N with 0 <= I < N (such as 0/4), got '{text}'");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The items of shard `i` of `n` in a run of `items`: the i-th of n contiguous ranges.
pub fn shard_range(items: usize, (i, n): (usize, usize)) -> std::ops::Range<usize> {
    items * i / n..items * (i + 1) / n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split_the_items() {
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        for bad in ["4/4", "1", "a/b", "0/0", "-1/3"] {
            assert!(parse_shard(bad).unwrap_err().contains("--shard"), "{bad}");
        }
        let ranges: Vec<_> = (0..3).map(|i| shard_range(10, (i, 3))).collect();
        assert_eq!(ranges, vec![0..3, 3..6, 6..10]);
    }
}
