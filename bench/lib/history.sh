# Sourced by the benches that append their record: bench_history_file [ROOT] prints the file a run's record
# goes to, ROOT/bench/history/<UTC day>.md (ROOT defaults to the current directory, the repository root),
# and makes it with its one-line header when the record is the day's first. Every run is kept there;
# bench/RESULTS.md holds the latest figure of each bench, updated by hand from the record.
bench_history_file() {
  local root=${1:-.} day file
  day=$(date -u +%F)
  file="$root/bench/history/$day.md"
  if [ ! -f "$file" ]; then
    mkdir -p "$root/bench/history"
    printf '# Bench history, %s: the records the bench scripts appended for this day'"'"'s runs, in their order (latest figures: [bench/RESULTS.md](../RESULTS.md))\n\n' "$day" > "$file"
  fi
  printf '%s\n' "$file"
}
