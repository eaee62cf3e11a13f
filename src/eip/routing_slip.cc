// SPDX-License-Identifier: Apache-2.0
// routingSlip(expression): the exchange itself goes through each endpoint the expression
// names (evaluated once, before the first), the output of one being the input of the next.
// dynamicRouter(expression): the expression is evaluated again after every endpoint and
// names the next ones, until it gives null or nothing.
//
// Each hop is a nested send on the same exchange that waits for the hop to complete
// (a route reached through direct: runs in the same loop, nested); a failed hop fails this
// step, so the route's error handler sees the routing slip step as the failing one.
#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "core/text.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "engine/producer_cache.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

const HeaderKey kSlipEndpoint{"CamelSlipEndpoint"};

class RoutingSlipStep final : public Step {
 public:
  RoutingSlipStep(Context& context, std::unique_ptr<Expression> e, std::string delimiter,
                  bool ignore_invalid, bool dynamic)
      : context_(context),
        expression_(std::move(e)),
        delimiter_(std::move(delimiter)),
        ignoreInvalid_(ignore_invalid),
        dynamic_(dynamic) {}

  Status run(Exchange& ex) noexcept override {
    // The slip is copied out of the message first: the hops may change what it was read from.
    std::string slip;
    for (;;) {
      {
        Value scratch;
        const Value* v = expression_->evaluate(ex, scratch);
        if (!v) return Status::Fail;
        if (v->isNull()) return Status::Continue;
        try {
          slip.clear();
          if (v->isList()) {
            for (const Value& e : v->getList()) {
              if (!slip.empty()) slip += delimiter_;
              e.appendTo(slip);
            }
          } else {
            v->appendTo(slip);
          }
        } catch (...) {
          ex.setException(std::current_exception());
          return Status::Fail;
        }
      }
      if (trim(slip).empty()) return Status::Continue;
      size_t start = 0;
      while (start <= slip.size()) {
        size_t end = delimiter_.empty() ? std::string::npos : slip.find(delimiter_, start);
        if (end == std::string::npos) end = slip.size();
        std::string_view uri = trim(std::string_view(slip).substr(start, end - start));
        start = end + std::max<size_t>(delimiter_.size(), 1);
        if (uri.empty()) continue;
        Status s = hop(ex, uri);
        if (s != Status::Continue) return s;
        if (ex.isRouteStop()) return Status::Continue;
      }
      if (!dynamic_) return Status::Continue;
    }
  }

 private:
  Status hop(Exchange& ex, std::string_view uri) noexcept {
    Producer* producer = cachedProducer(context_, uri, ex, ignoreInvalid_);
    if (!producer) return ex.failed() ? Status::Fail : Status::Continue;
    try {
      ex.properties().slot(kSlipEndpoint) = uri;
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return processAndWait(ex, *producer) == Status::Fail ? Status::Fail : Status::Continue;
  }

  Context& context_;
  std::unique_ptr<Expression> expression_;
  std::string delimiter_;
  bool ignoreInvalid_;
  bool dynamic_;
};

}  // namespace

Result<std::unique_ptr<Step>> RoutingSlipModel::compile(RouteCompiler& compiler) const {
  auto e = expression.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new RoutingSlipStep(compiler.context(), std::move(*e), delimiter,
                                                   ignoreInvalidEndpoints, dynamic));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kRoutingSlipAliases[] = {"routing-slip"};
// routingSlip's and dynamicRouter's.
constexpr auto kUriListAttributes = joinAttributes(
    std::array<AttributeSchema, 1>{{{"uriDelimiter", AttributeType::Text, ",",
                                     "What separates the URIs"}}},
    kDynamicEndpointAttributes);
constexpr std::string_view kDynamicRouterAliases[] = {"dynamic-router"};
}  // namespace

extern const EipSchema kRoutingSlipSchema{
    .key = "routingSlip",
    .aliases = kRoutingSlipAliases,
    .description = "Sends the exchange through the endpoints the expression lists, one after the "
                   "other",
    .attributes = kUriListAttributes,
    .expression = ExpressionUse::Expression,
};
extern const EipSchema kDynamicRouterSchema{
    .key = "dynamicRouter",
    .aliases = kDynamicRouterAliases,
    .description = "Sends the exchange to the endpoints the expression gives, evaluated again "
                   "after each, until it gives none",
    .attributes = kUriListAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
