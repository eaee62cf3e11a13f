// SPDX-License-Identifier: Apache-2.0
// recipientList(expression): a copy of the exchange to each endpoint the expression names
// (a list, or a text cut at the delimiter), aggregated as multicast's branches are.
// Endpoints resolve through the per-thread producer cache (a repeated URI costs a hash and a
// compare); an endpoint that cannot be resolved fails the exchange, or is skipped with
// ignoreInvalidEndpoints.
#include <fmt/format.h>

#include <dromedary/core/value_compare.h>

#include "core/text.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "engine/producer_cache.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

using detail::FanOutState;

namespace {

const HeaderKey kMulticastIndex{"CamelMulticastIndex"};
const HeaderKey kMulticastComplete{"CamelMulticastComplete"};
const HeaderKey kRecipientEndpoint{"CamelRecipientListEndpoint"};

// The one step of a recipient's block: sends to the producer its sub-exchange was given.
class SendToRecipientStep final : public Step {
 public:
  Status run(Exchange& ex) noexcept override {
    FanOutState& s = *detail::exec(ex).fanOut;
    detail::exec(ex).toEndpoint = s.sendUri;
    return detail::callProducer(ex, *s.sendTarget);
  }
};

// Calls `fn(uri)` for each endpoint named by `v`: a list's elements or a text's parts.
template <class Fn>
void forEachUri(const Value& v, std::string_view delimiter, std::string& buffer, Fn&& fn) {
  auto text = [&](std::string_view t) {
    if (delimiter.empty()) {
      std::string_view one = trim(t);
      if (!one.empty()) fn(one);
      return;
    }
    size_t start = 0;
    while (start <= t.size()) {
      size_t end = t.find(delimiter, start);
      if (end == std::string_view::npos) end = t.size();
      std::string_view one = trim(t.substr(start, end - start));
      if (!one.empty()) fn(one);
      start = end + delimiter.size();
    }
  };
  if (v.isNull()) return;
  if (v.isList()) {
    for (const Value& e : v.getList()) text(stringForm(e, buffer));
    return;
  }
  text(stringForm(v, buffer));
}

class RecipientListStep final : public FanOutStep {
 public:
  RecipientListStep(FanOutOptions options, Context& context, std::unique_ptr<Expression> e,
                    std::string delimiter, bool ignore_invalid, const detail::Block& send)
      : FanOutStep(std::move(options)),
        context_(context),
        expression_(std::move(e)),
        delimiter_(std::move(delimiter)),
        ignoreInvalid_(ignore_invalid),
        send_(send) {}

 protected:
  Status begin(Exchange& input, FanOutState& s) noexcept override {
    const Value* v = expression_->evaluate(input, s.items);
    if (!v) return Status::Fail;
    s.producers.clear();
    size_t n = 0;
    bool failed = false;
    try {
      thread_local std::string buffer;
      forEachUri(*v, delimiter_, buffer, [&](std::string_view uri) {
        if (failed) return;
        Producer* p = cachedProducer(context_, uri, input, ignoreInvalid_);
        if (!p) {
          failed = input.failed();
          return;
        }
        if (s.uris.size() <= n) s.uris.emplace_back();
        s.uris[n++].assign(uri);
        s.producers.push_back(p);
      });
    } catch (...) {
      input.setException(std::current_exception());
      return Status::Fail;
    }
    if (failed) return Status::Fail;
    s.size = s.producers.size();
    s.sized = true;
    return Status::Continue;
  }

  FanOutWork next(Exchange&, FanOutState& s, Exchange& sub) noexcept override {
    if (s.index >= s.size) return {};
    FanOutState& own = s;
    try {
      FanOutState& target = detail::fanOutState(sub);
      target.sendTarget = own.producers[s.index];
      target.sendUri = &own.uris[s.index];
      Headers& props = sub.properties();
      props.slot(kMulticastIndex) = static_cast<int64_t>(s.index);
      props.slot(kMulticastComplete) = s.index + 1 == s.size;
      props.slot(kRecipientEndpoint) = std::string_view(own.uris[s.index]);
    } catch (...) {
      sub.setException(std::current_exception());
    }
    ++s.index;
    return {&send_};
  }

 private:
  Context& context_;
  std::unique_ptr<Expression> expression_;
  std::string delimiter_;
  bool ignoreInvalid_;
  const detail::Block& send_;
};

}  // namespace

Result<std::unique_ptr<Step>> RecipientListModel::compile(RouteCompiler& compiler) const {
  auto e = expression.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  if (cacheSize < -1 || cacheSize == 0) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           fmt::format("cacheSize must be -1 or at least 1, not {}",
                                                       cacheSize)));
  }
  auto options = this->options.compile(compiler, *this, false);
  if (!options) return options.error();
  // The block each recipient's sub-exchange runs: one send step.
  detail::Route& route = compiler.route();
  auto send = std::make_unique<SendToRecipientStep>();
  (void)detail::nameStep(route, *send,
                         id.empty() ? std::string("recipientList-send") : id + "-send");
  auto block = std::make_unique<detail::Block>();
  block->steps.push_back(send.get());
  block->route = &route;
  const detail::Block& ref = *block;
  route.steps.push_back(std::move(send));
  route.blocks.push_back(std::move(block));
  return std::unique_ptr<Step>(new RecipientListStep(std::move(*options), compiler.context(),
                                                     std::move(*e), delimiter,
                                                     ignoreInvalidEndpoints, ref));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kRecipientListAliases[] = {"recipient-list"};
constexpr auto kRecipientListAttributes = joinAttributes(
    joinAttributes(std::array<AttributeSchema, 1>{{{"delimiter", AttributeType::Text, ",",
                                                     "What separates the URIs in a text"}}},
                   kDynamicEndpointAttributes),
    kFanOutAttributes);
}  // namespace

extern const EipSchema kRecipientListSchema{
    .key = "recipientList",
    .aliases = kRecipientListAliases,
    .description = "Sends the exchange to each endpoint the expression lists",
    .attributes = kRecipientListAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
