// Early stopping on validation loss: training stops once `patience` evaluations in a row have not
// improved on the best so far, and the job keeps the weights of the best evaluation.

export class EarlyStopping {
  best = Infinity;
  bestEpoch = 0;
  private sinceBest = 0;

  constructor(private readonly patience: number | null) {}

  /** Records epoch's validation loss; true when it is the best so far (its weights are to keep). */
  observe(epoch: number, loss: number): boolean {
    if (loss < this.best) {
      [this.best, this.bestEpoch, this.sinceBest] = [loss, epoch, 0];
      return true;
    }
    this.sinceBest++;
    return false;
  }

  get shouldStop(): boolean {
    return this.patience !== null && this.sinceBest >= this.patience;
  }
}
