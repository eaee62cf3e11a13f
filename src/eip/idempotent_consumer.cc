// SPDX-License-Identifier: Apache-2.0
// idempotentConsumer(key, repository): runs its steps only for the first exchange with each
// key; duplicates get CamelDuplicateMessage=true and skip them (or run them with
// skipDuplicate(false)). Eager (the default) adds the key before the steps run, so a
// duplicate arriving meanwhile is caught; otherwise it is added once they succeed. A failed
// exchange's key is removed again (removeOnFailure, the default), so a redelivery from the
// source is not taken for a duplicate.
#include <list>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/idempotent_repository.h>

#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary {

namespace {

class MemoryIdempotentRepository final : public IdempotentRepository {
 public:
  explicit MemoryIdempotentRepository(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  bool add(std::string_view key) override {
    std::lock_guard lock(mutex_);
    if (index_.count(std::string(key))) return false;
    order_.emplace_back(key);
    index_.emplace(order_.back(), std::prev(order_.end()));
    if (order_.size() > capacity_) {
      index_.erase(order_.front());
      order_.pop_front();
    }
    return true;
  }
  bool contains(std::string_view key) override {
    std::lock_guard lock(mutex_);
    return index_.count(std::string(key)) != 0;
  }
  bool remove(std::string_view key) override {
    std::lock_guard lock(mutex_);
    auto it = index_.find(std::string(key));
    if (it == index_.end()) return false;
    order_.erase(it->second);
    index_.erase(it);
    return true;
  }
  void clear() override {
    std::lock_guard lock(mutex_);
    index_.clear();
    order_.clear();
  }

 private:
  size_t capacity_;
  std::mutex mutex_;
  std::list<std::string> order_;  // oldest first
  std::unordered_map<std::string, std::list<std::string>::iterator> index_;
};

}  // namespace

std::shared_ptr<IdempotentRepository> memoryIdempotentRepository(size_t cache_size) {
  return std::make_shared<MemoryIdempotentRepository>(cache_size);
}

namespace eip {

namespace {

const HeaderKey kDuplicate{"CamelDuplicateMessage"};
// Where the key travels with the exchange until it completes (for removeOnFailure/confirm).
const HeaderKey kKeyProperty{"CamelIdempotentKey"};

class IdempotentEndStep;

class IdempotentStep final : public Step {
 public:
  IdempotentStep(std::unique_ptr<Expression> key, std::shared_ptr<IdempotentRepository> repo,
                 const IdempotentConsumerModel& m)
      : key_(std::move(key)),
        repo_(std::move(repo)),
        eager_(m.eager),
        skipDuplicate_(m.skipDuplicate),
        removeOnFailure_(m.removeOnFailure),
        completionEager_(m.completionEager) {}
  void setBody(const detail::Block& body) { body_ = &body; }

  Status run(Exchange& ex) noexcept override {
    try {
      std::string key;
      {
        Value scratch;
        const Value* v = key_->evaluate(ex, scratch);
        if (!v) return Status::Fail;
        if (v->isNull()) {
          ex.fail(ErrorCode::EvaluationFailed,
                  "No message ID could be found using expression on message");
          return Status::Fail;
        }
        thread_local std::string buffer;
        key.assign(stringForm(*v, buffer));
      }
      bool duplicate = eager_ ? !repo_->add(key) : repo_->contains(key);
      if (duplicate) {
        ex.properties().slot(kDuplicate) = true;
        if (skipDuplicate_) return Status::Continue;
        return detail::pushBlock(ex, *body_) ? Status::Continue : Status::Fail;
      }
      ex.properties().slot(kKeyProperty) = std::string_view(key);
      if (!ex.addCompletionHook(&IdempotentStep::completed, this)) {
        ex.fail(ErrorCode::LimitExceeded, "More than 8 completion hooks on one exchange");
        return Status::Fail;
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return detail::pushBlock(ex, *body_) ? Status::Continue : Status::Fail;
  }

  // The block's steps succeeded (its last step): the key is kept.
  Status blockDone(Exchange& ex) noexcept {
    if (eager_ && !completionEager_) return Status::Continue;
    const Value* key = ex.getProperty(kKeyProperty);
    if (!key || !key->isString()) return Status::Continue;
    try {
      if (!eager_) repo_->add(key->getString());
      if (completionEager_) repo_->confirm(key->getString());
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

 private:
  // The exchange left its last route: confirm the key, or forget it when it failed.
  static void completed(Exchange& ex, void* arg) noexcept {
    auto* self = static_cast<IdempotentStep*>(arg);
    const Value* key = ex.getProperty(kKeyProperty);
    if (!key || !key->isString()) return;
    try {
      if (ex.failed()) {
        if (self->removeOnFailure_ && self->eager_) self->repo_->remove(key->getString());
      } else if (!self->completionEager_) {
        self->repo_->confirm(key->getString());
      }
    } catch (...) {
    }
  }

  std::unique_ptr<Expression> key_;
  std::shared_ptr<IdempotentRepository> repo_;
  bool eager_, skipDuplicate_, removeOnFailure_, completionEager_;
  const detail::Block* body_ = nullptr;
};

class IdempotentEndStep final : public Step {
 public:
  explicit IdempotentEndStep(IdempotentStep& owner) : owner_(owner) {}
  std::string_view engineId() const noexcept override { return "idempotentEnd"; }
  Status run(Exchange& ex) noexcept override { return owner_.blockDone(ex); }

 private:
  IdempotentStep& owner_;
};

}  // namespace

Result<std::unique_ptr<Step>> IdempotentConsumerModel::compile(RouteCompiler& compiler) const {
  auto key_expr = key.compile(compiler.context());
  if (!key_expr) return compiler.error(*this, key_expr.error());
  std::shared_ptr<IdempotentRepository> repo = repository;
  if (!repo && !repositoryRef.empty()) {
    repo = compiler.context().idempotentRepositoryByName(repositoryRef);
    if (!repo) {
      return compiler.error(
          *this, makeError(ErrorCode::InvalidRoute,
                           fmt::format("no idempotent repository bound as '{}' (bind one with "
                                       "Context::bindIdempotentRepository)",
                                       repositoryRef)));
    }
  }
  if (!repo) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           "idempotentConsumer needs an idempotent repository"));
  }
  auto step = std::make_unique<IdempotentStep>(std::move(*key_expr), repo, *this);
  std::vector<std::unique_ptr<Step>> trailing;
  trailing.push_back(std::make_unique<IdempotentEndStep>(*step));
  auto block = compiler.compileBlock(body, detail::BlockKind::Plain, std::move(trailing));
  if (!block) return block.error();
  step->setBody(**block);
  return std::unique_ptr<Step>(std::move(step));
}

}  // namespace eip
namespace eip {

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kIdempotentConsumerAliases[] = {"idempotent-consumer"};
constexpr AttributeSchema kIdempotentConsumerAttributes[] = {
    {"idempotentRepository", AttributeType::Text, "",
     "The repository the keys are kept in (Context::bindIdempotentRepository)", true},
    {"skipDuplicate", AttributeType::Boolean, "true",
     "Skip a duplicate (false: mark it with CamelDuplicateMessage and go on)"},
    {"eager", AttributeType::Boolean, "true",
     "Keep the key as the exchange comes in rather than once it completes"},
    {"removeOnFailure", AttributeType::Boolean, "true", "Forget the key of an exchange that fails"},
    {"completionEager", AttributeType::Boolean, "false",
     "Confirm the key when the nested steps end rather than the exchange"},
};
}  // namespace

extern const EipSchema kIdempotentConsumerSchema{
    .key = "idempotentConsumer",
    .aliases = kIdempotentConsumerAliases,
    .description = "Runs the nested steps once per key (the expression's value); duplicates are "
                   "skipped",
    .attributes = kIdempotentConsumerAttributes,
    .expression = ExpressionUse::Expression,
    .steps = true,
};

}  // namespace eip

}  // namespace dromedary
