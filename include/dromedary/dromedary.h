// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Everything an application needs: the context, the route DSL, the producer template.

#include <dromedary/components.h>
#include <dromedary/core/exchange.h>
#include <dromedary/core/message.h>
#include <dromedary/core/value.h>
#include <dromedary/engine/context.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/engine/producer_template.h>
#include <dromedary/engine/route_builder.h>
#include <dromedary/version.h>
