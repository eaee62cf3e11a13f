// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every EIP's schema, each defined by its pattern's own file in src/eip/ and listed in
// eip_schemas.cc: declared here so that the models (models.h) take their defaults from them.

#include "eip/eip_schema.h"

namespace dromedary::eip {

extern const EipSchema kToSchema;
extern const EipSchema kToDSchema;
extern const EipSchema kSetBodySchema;
extern const EipSchema kTransformSchema;
extern const EipSchema kSetHeaderSchema;
extern const EipSchema kSetPropertySchema;
extern const EipSchema kSetVariableSchema;
extern const EipSchema kSetVariablesSchema;
extern const EipSchema kRemoveVariableSchema;
extern const EipSchema kConvertVariableToSchema;
extern const EipSchema kRemoveHeaderSchema;
extern const EipSchema kRemoveHeadersSchema;
extern const EipSchema kRemovePropertySchema;
extern const EipSchema kRemovePropertiesSchema;
extern const EipSchema kConvertBodyToSchema;
extern const EipSchema kSetHeadersSchema;
extern const EipSchema kConvertHeaderToSchema;
extern const EipSchema kMarshalSchema;
extern const EipSchema kUnmarshalSchema;
extern const EipSchema kFilterSchema;
extern const EipSchema kChoiceSchema;
extern const EipSchema kLogSchema;
extern const EipSchema kStopSchema;
extern const EipSchema kValidateSchema;
extern const EipSchema kSetExchangePatternSchema;
extern const EipSchema kThrowExceptionSchema;
extern const EipSchema kDelaySchema;
extern const EipSchema kThrottleSchema;
extern const EipSchema kThreadsSchema;
extern const EipSchema kProcessSchema;
extern const EipSchema kBeanSchema;
extern const EipSchema kDoTrySchema;
extern const EipSchema kCircuitBreakerSchema;
extern const EipSchema kSplitSchema;
extern const EipSchema kMulticastSchema;
extern const EipSchema kRecipientListSchema;
extern const EipSchema kRoutingSlipSchema;
extern const EipSchema kDynamicRouterSchema;
extern const EipSchema kWireTapSchema;
extern const EipSchema kLoopSchema;
extern const EipSchema kPipelineSchema;
extern const EipSchema kLoadBalanceSchema;
extern const EipSchema kSortSchema;
extern const EipSchema kClaimCheckSchema;
extern const EipSchema kResequenceSchema;
extern const EipSchema kEnrichSchema;
extern const EipSchema kPollEnrichSchema;
extern const EipSchema kPollSchema;
extern const EipSchema kScriptSchema;
extern const EipSchema kSampleSchema;
extern const EipSchema kIdempotentConsumerSchema;
extern const EipSchema kAggregateSchema;

}  // namespace dromedary::eip
