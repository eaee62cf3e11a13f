// SPDX-License-Identifier: Apache-2.0
// to(uri): sends the exchange to an endpoint resolved once, when the route starts.
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ToStep final : public Step {
 public:
  ToStep(Producer& producer, std::string uri) : producer_(producer), uri_(std::move(uri)) {}

  Status run(Exchange& ex) noexcept override {
    detail::exec(ex).toEndpoint = &uri_;  // CamelFailureEndpoint, if a later step fails
    return detail::callProducer(ex, producer_);
  }

  bool mayBlock() const noexcept override { return producer_.mayBlock(); }
 private:
  Producer& producer_;
  const std::string uri_;
};

// to(pattern, uri): enters a two-step block [send, restore] with the pattern set; the
// block's frame keeps the pattern to restore (its loop counter is free: it is no loop), so
// the restore works however the send completes (at once, through a route, or resumed).
class EnterWithPatternStep final : public Step {
 public:
  EnterWithPatternStep(Pattern pattern, const detail::Block& block)
      : pattern_(pattern), block_(block) {}
  Status run(Exchange& ex) noexcept override {
    Pattern original = ex.pattern();
    if (!detail::pushBlock(ex, block_)) return Status::Fail;
    detail::ExecState& st = detail::exec(ex);
    st.frames[st.depth - 1].counter = static_cast<uint32_t>(original);
    ex.setPattern(pattern_);
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  Pattern pattern_;
  const detail::Block& block_;
};

class RestorePatternStep final : public Step {
 public:
  Status run(Exchange& ex) noexcept override {
    detail::ExecState& st = detail::exec(ex);
    ex.setPattern(static_cast<Pattern>(st.frames[st.depth - 1].counter));
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }
};

}  // namespace

Result<std::unique_ptr<Step>> sendWithPattern(RouteCompiler& compiler, Pattern pattern,
                                              std::unique_ptr<Step> send) {
  std::vector<std::unique_ptr<Step>> steps;
  (void)detail::nameStep(compiler.route(), *send, "send");
  steps.push_back(std::move(send));
  steps.push_back(std::make_unique<RestorePatternStep>());
  (void)detail::nameStep(compiler.route(), *steps.back(), "restorePattern");
  detail::BlockModel empty;
  auto block = compiler.compileBlock(empty, detail::BlockKind::Plain, std::move(steps));
  if (!block) return block.error();
  return std::unique_ptr<Step>(new EnterWithPatternStep(pattern, **block));
}

Result<std::unique_ptr<Step>> ToModel::compile(RouteCompiler& compiler) const {
  if (!variableSend.empty() || !variableReceive.empty()) {
    return sendWithVariables(compiler, *this, constant(Value(uri)), pattern, variableSend,
                             variableReceive);
  }
  auto producer = compiler.producer(uri);
  if (!producer) return compiler.error(*this, producer.error());
  auto send = compiler.interceptSend(uri, std::make_unique<ToStep>(**producer, uri));
  if (!send) return compiler.error(*this, send.error());
  if (pattern < 0) return std::move(*send);
  return sendWithPattern(compiler, static_cast<Pattern>(pattern), std::move(*send));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kPatterns[] = {"InOnly", "InOut"};
constexpr AttributeSchema kToAttributes[] = {
    {"uri", AttributeType::Text, "", "The endpoint URI", true},
    {"pattern", AttributeType::Enum, "", "This send's exchange pattern; default: the exchange's",
     false, kPatterns},
    {"variableSend", AttributeType::Text, "",
     "The variable whose value is sent as the body (Camel 4)"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the reply's body goes to (its headers to header:NAME.KEY); the message "
     "stays as it was"},
};
}  // namespace

extern const EipSchema kToSchema{
    .key = "to",
    .description = "Sends the exchange to an endpoint",
    .attributes = kToAttributes,
    .shorthand = "uri",
};

}  // namespace dromedary::eip
