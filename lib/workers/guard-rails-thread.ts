// The one-shot thread a remote SFT job's guard rails run on (remote-guard-rails.ts): two models'
// greedy replies to the job's held-out prompts — seconds on a tiny base, minutes on a 0.5B one —
// which must not stall the web server's event loop.
import { answerOnce } from "./one-shot-answer";
import { checkTrainedWeights, type TrainedWeightsRequest } from "./check-trained-weights";

await answerOnce((request: TrainedWeightsRequest) => checkTrainedWeights(request));
