#!/usr/bin/env bash
# The .deb as an operator gets it: built by CPack from the build folder, its dependencies and
# contents checked, unpacked into a clean folder (dpkg -x) and run from there, its systemd unit
# verified, and its readiness notification (Type=notify) received on a real socket.
#   tests/packaging/package_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build="$1"
src="$2"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
check() {  # check NAME EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

(cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log" 2>&1)
check "cpack builds the package" $?
deb=$(ls "$tmp"/out/dromedary_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; echo "FAIL no .deb"; exit 1; }
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

# Control: name, version, runtime dependencies from dpkg-shlibdeps, none of them -dev.
dpkg-deb --field "$deb" Package Version Architecture Depends > "$tmp/control"
grep -q "^Package: dromedary$" "$tmp/control"; check "Package: dromedary" $?
version=$("$build/bin/dromedary" version | awk '{print $2}')
grep -q "^Version: $version$" "$tmp/control"; check "Version is the program's ($version)" $?
depends=$(grep "^Depends:" "$tmp/control")
echo "$depends"
for lib in libc6 libstdc++6 libyaml-cpp0.7 libpugixml1v5 libre2-9 librdkafka1 libpq5 \
           libsqlite3-0 libcurl4 adduser; do
  echo "$depends" | grep -q "\b$lib\b"; check "depends on $lib" $?
done
! echo "$depends" | grep -q -- "-dev\b"; check "depends on no -dev package" $?
# sd_notify's protocol is spoken by the program itself (apps/dromedary/systemd_notify.cc).
! echo "$depends" | grep -q "\blibsystemd0\b"; check "does not depend on libsystemd0" $?
dpkg-deb --ctrl-tarfile "$deb" | tar -t > "$tmp/ctrl"
for f in postinst prerm postrm conffiles; do
  grep -q "^./$f$" "$tmp/ctrl"; check "control has $f" $?
done
dpkg-deb -e "$deb" "$tmp/ctrl-files"
grep -qx "/etc/dromedary/application.properties" "$tmp/ctrl-files/conffiles"
check "application.properties is a conffile (an operator's edits survive upgrades)" $?
for f in postinst prerm postrm; do sh -n "$tmp/ctrl-files/$f"; check "$f is valid sh" $?; done
grep -q "systemd-sysusers dromedary.conf" "$tmp/ctrl-files/postinst"
check "postinst makes the dromedary system user" $?

# Contents.
dpkg-deb --contents "$deb" | awk '{print $6}' > "$tmp/contents"
for f in ./usr/bin/dromedary ./usr/lib/systemd/system/dromedary.service \
         ./usr/lib/sysusers.d/dromedary.conf ./etc/dromedary/application.properties \
         ./etc/dromedary/routes/ ./usr/share/man/man1/dromedary.1.gz \
         ./usr/share/man/man1/dromedary-run.1.gz ./usr/share/man/man1/dromedary-init.1.gz \
         ./usr/share/bash-completion/completions/dromedary \
         ./usr/share/dromedary/kamelets/timer-source.kamelet.yaml \
         ./usr/share/doc/dromedary/README.md ./usr/share/doc/dromedary/docs/routes-from-files.md \
         ./usr/share/doc/dromedary/examples/hello/hello.yaml; do
  grep -qx -- "$f" "$tmp/contents"; check "contains $f" $?
done
! grep -q "^./usr/include\|\.a$\|/tests\?/" "$tmp/contents"
check "no headers, static libraries or tests" $?

# Unpacked into a clean folder and run from there, as the README's install section says.
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
"$root/usr/bin/dromedary" version > "$tmp/v" 2>&1
grep -q "^dromedary $version" "$tmp/v"; check "the unpacked binary runs" $?
# Its component modules (docs/modules.md), found beside it and loaded by a route that uses one.
for m in amqp httpclient kafka sql stream; do
  grep -q "^./usr/lib.*/dromedary/dromedary-$m.so$" "$tmp/contents"
  check "contains the module dromedary-$m.so" $?
done
cat > "$tmp/modules.yaml" <<'YAML'
- from:
    uri: direct:in
    steps:
      - to: kafka:orders?brokers=127.0.0.1:9092
      - to: https://example.com/orders
      - to: amqp:queue:orders
      - to: sql:select 1?dataSource=#db
YAML
# Validating stops at the first error: the last endpoint's (its data source is not configured)
# says that every module before it, and its own, loaded.
"$root/usr/bin/dromedary" validate "$tmp/modules.yaml" > "$tmp/validate" 2>&1
code=$?
grep -q "modules.yaml:7:9: endpoint 'sql:select 1?dataSource=#db': no data source named 'db'" \
  "$tmp/validate"
check "the unpacked binary loads its modules from the package (exit $code)" $?
"$root/usr/bin/dromedary" init hello.yaml --directory "$root/etc/dromedary/routes" > /dev/null
timeout 30 "$root/usr/bin/dromedary" run "$root/etc/dromedary/routes" \
  --properties "$root/etc/dromedary/application.properties" --max-messages 2 > "$tmp/run" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "Hello from hello" "$tmp/run"
check "runs routes from its /etc/dromedary layout (exit $code)" $?
zcat "$root/usr/share/man/man1/dromedary-run.1.gz" | grep -q -- '\\-\\-dev'
check "the man page of run documents --dev" $?

# The systemd unit: systemd's own checker, on the unpacked tree. A Debian root has systemd's
# units (sysinit.target ...): the host's are copied in beside the package's (never over
# them). ExecStart's binary is looked up in the root, the Documentation= man pages among the
# package's. Exit 0 and not a word: a warning (an unknown key, a bad value) fails too.
if command -v systemd-analyze > /dev/null; then
  cp -rn /usr/lib/systemd/system/. "$root/usr/lib/systemd/system/"
  MANPATH="$root/usr/share/man" systemd-analyze verify --root="$root" \
    "$root/usr/lib/systemd/system/dromedary.service" > "$tmp/verify" 2>&1
  code=$?
  cat "$tmp/verify"
  [ $code -eq 0 ] && [ ! -s "$tmp/verify" ]
  check "systemd-analyze verify accepts dromedary.service" $?
else
  echo "FAIL systemd-analyze is not installed (scripts/install-deps.sh installs systemd)"
  failures=$((failures + 1))
fi
for key in "Type=notify" "Restart=on-failure" "ProtectSystem=strict" "NoNewPrivileges=yes" \
           "User=dromedary" "ExecStart=/usr/bin/dromedary run /etc/dromedary/routes"; do
  grep -q "^$key" "$root/usr/lib/systemd/system/dromedary.service"; check "unit has $key" $?
done

# Type=notify: READY=1 arrives on $NOTIFY_SOCKET once the routes have started, STOPPING=1 on
# SIGTERM, and the process then exits 0 (a graceful stop).
python3 - "$root/usr/bin/dromedary" "$root/etc/dromedary/routes" "$tmp/notify.sock" \
  > "$tmp/notify" 2>&1 <<'PY'
import os, signal, socket, subprocess, sys
binary, routes, path = sys.argv[1:4]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
sock.settimeout(20)
env = dict(os.environ, NOTIFY_SOCKET=path)
proc = subprocess.Popen([binary, "run", routes], env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
ready = sock.recv(4096).decode()
print("first:", ready.replace("\n", " | "))
proc.send_signal(signal.SIGTERM)
stopping = sock.recv(4096).decode()
print("then:", stopping.replace("\n", " | "))
print("exit:", proc.wait(timeout=20))
# An abstract socket ("@name", as systemd may hand out): the same first line.
name = "@dromedary-notify-%d" % os.getpid()
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind("\0" + name[1:])
sock.settimeout(20)
env = dict(os.environ, NOTIFY_SOCKET=name)
proc = subprocess.Popen([binary, "run", routes], env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
print("abstract:", sock.recv(4096).decode().replace("\n", " | "))
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=20)
PY
cat "$tmp/notify"
grep -q "^first: READY=1 | STATUS=1 routes started" "$tmp/notify"
check "sd_notify READY=1 once the routes started" $?
grep -q "^then: STOPPING=1 | STATUS=stopping: SIGTERM" "$tmp/notify"
check "sd_notify STOPPING=1 on SIGTERM" $?
grep -q "^exit: 0" "$tmp/notify"; check "a graceful stop exits 0" $?
grep -q "^abstract: READY=1 | STATUS=1 routes started" "$tmp/notify"
check "sd_notify READY=1 on an abstract socket (@name)" $?

echo "$failures failure(s)"
[ $failures -eq 0 ]
