// Where a playground run is recorded (docs/contract.md, Svc-Project): a trained model's calls in its
// own project, a base model's in the workspace's — the playground sends that as Svc-Project.

const TRAINED_NAME = /^([^/:]+\/[^/:]+)\/[^/:]+(?::step\d+)?$/;

export function recordingProject(model: string | undefined, workspaceRef: string | undefined): string | undefined {
  return (model && TRAINED_NAME.exec(model)?.[1]) || workspaceRef;
}
