// Small vocabularies the task families draw from: short, common words keep prompts a few tokens long.

export const WORDS = [
  "apple", "river", "stone", "cloud", "green", "tiger", "house", "light", "music", "bread", "chair", "dream",
  "ocean", "plant", "smile", "train", "water", "zebra", "cat", "dog", "sun", "moon", "star", "tree", "book",
  "fish", "bird", "rain", "snow", "wind", "fire", "gold", "blue", "red", "sky", "sea", "road", "door",
];

export const NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Ida", "Jon", "Kim", "Leo", "Mia", "Ned", "Ola", "Raj", "Sam"];

export const COLORS = ["red", "blue", "green", "black", "white", "pink"];
