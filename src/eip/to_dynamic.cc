// SPDX-License-Identifier: Apache-2.0
// toD(expr): sends to a URI computed per exchange. Resolved producers are cached per thread
// by URI text, so a repeated URI costs a hash and a compare: no parse, no lock.
#include "core/scratch.h"
#include <dromedary/core/value_compare.h>
#include "eip/models.h"
#include "engine/producer_cache.h"
#include "engine/executor.h"
#include "engine/intercept.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ToDynamicStep final : public Step {
 public:
  ToDynamicStep(Context& context, std::unique_ptr<Expression> uri,
                std::unique_ptr<detail::DynamicSendInterception> intercept)
      : context_(context), uri_(std::move(uri)), intercept_(std::move(intercept)) {}

  Status run(Exchange& ex) noexcept override {
    Producer* producer;
    {
      ScratchValue scratch;
      const Value* v = uri_->evaluate(ex, *scratch);
      if (!v) return Status::Fail;
      if (v->isNull()) {
        ex.fail(ErrorCode::InvalidUri, "toD expression returned null");
        return Status::Fail;
      }
      thread_local std::string buffer;
      std::string_view text = stringForm(*v, buffer);
      if (intercept_) {
        if (std::optional<Status> intercepted = intercept_->run(ex, text)) return *intercepted;
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

}  // namespace

Result<std::unique_ptr<Step>> ToDynamicModel::compile(RouteCompiler& compiler) const {
  if (!variableSend.empty() || !variableReceive.empty()) {
    return sendWithVariables(compiler, *this, uri, pattern, variableSend, variableReceive);
  }
  auto e = uri.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  auto intercept = compiler.dynamicSendInterception();
  if (!intercept) return compiler.error(*this, intercept.error());
  std::unique_ptr<Step> send(
      new ToDynamicStep(compiler.context(), std::move(*e), std::move(*intercept)));
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
