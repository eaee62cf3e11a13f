// SPDX-License-Identifier: Apache-2.0
// toD(expr): sends to a URI computed per exchange. Resolved producers are cached per thread
// by URI text, so a repeated URI costs a hash and a compare: no parse, no lock. A URI of a
// component that splits its URIs (http) goes to one endpoint per host (SplitSendStep).
#include <dromedary/core/value_compare.h>
#include <dromedary/spi/component.h>

#include "core/scratch.h"
#include "eip/eip_schema.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "engine/expression_spec.h"
#include "engine/intercept.h"
#include "engine/producer_cache.h"

namespace dromedary::eip {

namespace {

// The URI `uri` computes for `ex`, as text (in a thread-local buffer, or in `scratch`), into
// `text`; a Status when the step is done instead: the exchange failed, or an
// interceptSendToEndpoint took the send.
inline std::optional<Status> computeUri(Exchange& ex, const Expression& uri, Value& scratch,
                                        detail::DynamicSendInterception* intercept,
                                        std::string_view& text) noexcept {
  const Value* v = uri.evaluate(ex, scratch);
  if (!v) return Status::Fail;
  if (v->isNull()) {
    ex.fail(ErrorCode::InvalidUri, "toD expression returned null");
    return Status::Fail;
  }
  thread_local std::string buffer;
  text = stringForm(*v, buffer);
  if (intercept) return intercept->run(ex, text);
  return std::nullopt;
}

class ToDynamicStep final : public Step {
 public:
  ToDynamicStep(Context& context, std::unique_ptr<Expression> uri,
                std::unique_ptr<detail::DynamicSendInterception> intercept)
      : context_(context), uri_(std::move(uri)), intercept_(std::move(intercept)) {}

  Status run(Exchange& ex) noexcept override {
    Producer* producer;
    {
      ScratchValue scratch;
      std::string_view text;
      if (std::optional<Status> done = computeUri(ex, *uri_, *scratch, intercept_.get(), text)) {
        return *done;
      }
      producer = cachedProducer(context_, text, ex);
    }
    if (!producer) return Status::Fail;
    return detail::callProducer(ex, *producer);
  }

 private:
  Context& context_;
  std::unique_ptr<Expression> uri_;
  std::unique_ptr<detail::DynamicSendInterception> intercept_;  // interceptSendToEndpoint
};

// toD to a component that splits its URIs (Camel's SendDynamicAware: http, https): a
// two-step block [send, clear]. The send sends to the shared endpoint with the component's
// headers set (the path, the query); the clear removes them after the send, on whichever
// thread resumes it, so a later send does not take them. The block's frame counter says
// whether the send split its URI (an intercepted or unsplit one sets nothing).
class EnterSplitSendStep final : public Step {
 public:
  explicit EnterSplitSendStep(const detail::Block& block) : block_(block) {}
  Status run(Exchange& ex) noexcept override {
    if (!detail::pushBlock(ex, block_)) return Status::Fail;
    detail::ExecState& st = detail::exec(ex);
    st.frames[st.depth - 1].counter = 0;
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  const detail::Block& block_;
};

class SplitSendStep final : public Step {
 public:
  SplitSendStep(Context& context, const Component& component, std::unique_ptr<Expression> uri,
                std::unique_ptr<detail::DynamicSendInterception> intercept)
      : context_(context),
        component_(component),
        uri_(std::move(uri)),
        intercept_(std::move(intercept)) {
    for (std::string_view name : component.dynamicSendHeaders())
      keys_.emplace_back(std::string(name));
  }

  Status run(Exchange& ex) noexcept override {
    Producer* producer;
    {
      ScratchValue scratch;
      std::string_view text;
      if (std::optional<Status> done = computeUri(ex, *uri_, *scratch, intercept_.get(), text)) {
        return *done;
      }
      thread_local std::string endpoint;
      thread_local std::vector<std::string> values;
      if (values.size() < keys_.size()) values.resize(keys_.size());
      std::span<std::string> parts(values.data(), keys_.size());
      if (!component_.splitDynamicUri(text, endpoint, parts)) {
        producer = cachedProducer(context_, text, ex);
      } else {
        producer = cachedProducer(context_, endpoint, ex);
        if (producer) {
          Headers& headers = ex.message().headers();
          for (size_t i = 0; i < keys_.size(); ++i) {
            if (parts[i].empty()) {
              headers.remove(keys_[i]);
            } else {
              detail::assignText(headers.textSlot(keys_[i]), parts[i]);
            }
          }
          detail::ExecState& st = detail::exec(ex);
          st.frames[st.depth - 1].counter = 1;
        }
      }
    }
    if (!producer) return Status::Fail;
    return detail::callProducer(ex, *producer);
  }

  const std::vector<HeaderKey>& keys() const noexcept { return keys_; }

 private:
  Context& context_;
  const Component& component_;
  std::unique_ptr<Expression> uri_;
  std::unique_ptr<detail::DynamicSendInterception> intercept_;
  std::vector<HeaderKey> keys_;
};

class ClearSplitHeadersStep final : public Step {
 public:
  explicit ClearSplitHeadersStep(std::vector<HeaderKey> keys) : keys_(std::move(keys)) {}
  Status run(Exchange& ex) noexcept override {
    detail::ExecState& st = detail::exec(ex);
    if (st.frames[st.depth - 1].counter == 0) return Status::Continue;
    for (const HeaderKey& key : keys_) ex.message().headers().remove(key);
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  std::vector<HeaderKey> keys_;
};

// The component whose URIs toD may split: the one the expression's fixed start names
// ("https://api/items/${header.id}"), if it splits URIs.
const Component* splittingComponent(Context& context, const ExpressionDefinition& uri) {
  std::string prefix = uri.spec()->literalPrefix(context);
  size_t colon = prefix.find(':');
  if (colon == std::string::npos || colon == 0) return nullptr;
  const Component* component = context.component(std::string_view(prefix).substr(0, colon));
  return component && !component->dynamicSendHeaders().empty() ? component : nullptr;
}

}  // namespace

Result<std::unique_ptr<Step>> ToDynamicModel::compile(RouteCompiler& compiler) const {
  if (!variableSend.empty() || !variableReceive.empty()) {
    return sendWithVariables(compiler, *this, uri, pattern, variableSend, variableReceive);
  }
  auto e = uri.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  auto intercept = compiler.dynamicSendInterception();
  if (!intercept) return compiler.error(*this, intercept.error());
  std::unique_ptr<Step> send;
  if (const Component* component =
          allowOptimisedComponents ? splittingComponent(compiler.context(), uri) : nullptr) {
    auto split = std::make_unique<SplitSendStep>(compiler.context(), *component, std::move(*e),
                                                 std::move(*intercept));
    std::vector<std::unique_ptr<Step>> steps;
    steps.push_back(std::make_unique<ClearSplitHeadersStep>(split->keys()));
    steps.insert(steps.begin(), std::move(split));
    (void)detail::nameStep(compiler.route(), *steps[0], "send");
    (void)detail::nameStep(compiler.route(), *steps[1], "clearHeaders");
    detail::BlockModel empty;
    auto block = compiler.compileBlock(empty, detail::BlockKind::Plain, std::move(steps));
    if (!block) return compiler.error(*this, block.error());
    send.reset(new EnterSplitSendStep(**block));
  } else {
    send.reset(new ToDynamicStep(compiler.context(), std::move(*e), std::move(*intercept)));
  }
  if (pattern < 0) return send;
  return sendWithPattern(compiler, static_cast<Pattern>(pattern), std::move(send));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kPatterns[] = {"InOnly", "InOut"};
constexpr std::string_view kToDAliases[] = {"to-d"};
constexpr AttributeSchema kToDAttributes[] = {
    {"uri", AttributeType::Text, "", "The endpoint URI, as Simple", true},
    {"pattern", AttributeType::Enum, "", "This send's exchange pattern; default: the exchange's",
     false, kPatterns},
    {"variableSend", AttributeType::Text, "",
     "The variable whose value is sent as the body (Camel 4)"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the reply's body goes to (its headers to header:NAME.KEY); the message "
     "stays as it was"},
    {"allowOptimisedComponents", AttributeType::Boolean, "true",
     "Whether a URI of a component that splits its URIs (http, https) is sent to one endpoint "
     "per host with its path and query in headers (Camel's SendDynamicAware)"},
};
}  // namespace

extern const EipSchema kToDSchema{
    .key = "toD",
    .aliases = kToDAliases,
    .description = "Sends the exchange to an endpoint whose URI is computed per exchange (Simple)",
    .attributes = kToDAttributes,
    .shorthand = "uri",
};

}  // namespace dromedary::eip
