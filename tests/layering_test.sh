#!/usr/bin/env bash
# The layers include one way only (docs/engine.md): core <- engine <- eip, language, dsl,
# management, server <- components <- apps. Fails naming each include that points up.
#   tests/layering_test.sh SOURCE_DIR
set -uo pipefail
root="${1:?usage: layering_test.sh SOURCE_DIR}"
cd "$root" || exit 2
# folder -> the private folders it may include (besides its own)
declare -A allowed=(
  [core]=""
  [engine]="core"
  [eip]="core engine"
  [language]="core engine"
  [dsl]="core engine eip language"
  [management]="core"  # what it shows comes through the public statistics API
  [server]="core"
  [sqlite]="core engine"
  [modules]=""  # component modules: through the public API only
)
status=0
for layer in "${!allowed[@]}"; do
  while IFS=: read -r file _ include; do
    target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$include")
    [ "$target" = "$layer" ] && continue
    case " ${allowed[$layer]} " in *" $target "*) continue ;; esac
    echo "layering: $file includes \"$target/...\": $layer may include only: ${allowed[$layer]:-nothing else}"
    status=1
  done < <(grep -rnE '^#include "[a-z_]+/' "src/$layer" 2>/dev/null)
done
# Core's public headers and sources use no public header of a higher layer either.
while IFS= read -r line; do
  echo "layering: $line: core includes a public header of a higher layer"
  status=1
done < <(grep -rnE '^#include <dromedary/(engine|dsl|management|sqlite|support|components)' \
           src/core include/dromedary/core 2>/dev/null)
# Components reach the engine through the public API only.
while IFS= read -r line; do
  echo "layering: $line: a component includes the engine's private headers"
  status=1
done < <(grep -rnE '^#include "(core|engine|eip|language|dsl|management|server|sqlite)/' \
           components/*/src components/*/include 2>/dev/null)
[ $status -eq 0 ] && echo "layering: every include points down"
exit $status
