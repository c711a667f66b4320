# Sourced by start.sh and ensure-deps.sh: shows that a long step is under way.
# with_progress LABEL CMD…: runs CMD; on a terminal a "LABEL… N s" line ticks (with the last line CMD
# wrote to the file $PROGRESS_STATUS, if any), otherwise a line at 2 s and every 10 s. CMD's output passes.
with_progress() {
  local label="$1"; shift
  PROGRESS_STATUS="$(mktemp)"; export PROGRESS_STATUS
  local start=$SECONDS next=2 rc=0 status elapsed
  "$@" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    elapsed=$((SECONDS - start))
    status="$(tail -n 1 "$PROGRESS_STATUS" 2>/dev/null || true)"
    if [ -t 1 ]; then
      printf '\r\033[2K  %s%s… %d s' "$label" "${status:+: $status}" "$elapsed"
    elif [ "$elapsed" -ge "$next" ]; then
      echo "  $label${status:+: $status}… $elapsed s"
      next=$((next + 10))
    fi
  done
  if [ -t 1 ]; then printf '\r\033[2K'; fi
  wait "$pid" || rc=$?
  rm -f "$PROGRESS_STATUS"
  if [ "$rc" = 0 ]; then echo "$label: done ($((SECONDS - start)) s)"; else echo "$label: failed (exit $rc)" >&2; fi
  return "$rc"
}
